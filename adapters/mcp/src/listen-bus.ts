import type { ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";
import type { McpToolsetLike } from "./server.js";

type Listener = (event: ServerEvent) => void;

/**
 * The change events of 2026-07-28 `subscriptions/listen` streams. A stream belongs to the client
 * whose request opened it (`clientOf`, read when the SDK subscribes, inside that request), and
 * hears the changes of that client's toolset only: one client never learns of another's
 * resources. The SDK does the wire part (the acknowledgement first, the filter, the id stamp).
 */
export class ClientEventBus implements ServerEventBus {
  private readonly listeners = new Map<Listener, McpToolsetLike | undefined>();

  constructor(private readonly clientOf: () => McpToolsetLike | undefined) {}

  subscribe(listener: Listener): () => void {
    this.listeners.set(listener, this.clientOf());
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Every stream: only what any client may see (the SDK's own `notify` sugar lands here). */
  publish(event: ServerEvent): void {
    for (const listener of [...this.listeners.keys()]) deliver(listener, event);
  }

  /** The streams of `client` (undefined: of the requests served by the shared toolset). */
  publishFor(client: McpToolsetLike | undefined, event: ServerEvent): void {
    for (const [listener, owner] of [...this.listeners]) if (owner === client) deliver(listener, event);
  }

  /**
   * Forwards `toolset`'s tool and resource changes to the streams of `client` (the toolset
   * itself, or undefined for the shared one); returns the unsubscribe.
   */
  follow(toolset: McpToolsetLike, client: McpToolsetLike | undefined): () => void {
    const stops: Array<() => void> = [];
    if (toolset.onToolsChanged)
      stops.push(toolset.onToolsChanged(() => this.publishFor(client, { kind: "tools_list_changed" })));
    const watch = toolset.resources?.available ? toolset.resources.watch?.bind(toolset.resources) : undefined;
    if (watch)
      stops.push(
        watch((change) =>
          this.publishFor(
            client,
            change.uri === undefined
              ? { kind: "resources_list_changed" }
              : { kind: "resource_updated", uri: change.uri },
          ),
        ),
      );
    return () => {
      for (const stop of stops.splice(0)) stop();
    };
  }
}

function deliver(listener: Listener, event: ServerEvent): void {
  try {
    listener(event);
  } catch {
    // a stream that broke is the SDK's to tear down; the others still hear the event
  }
}
