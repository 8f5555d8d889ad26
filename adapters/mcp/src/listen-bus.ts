import type { Server, ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";
import type { McpToolsetLike } from "./server.js";

type Listener = (event: ServerEvent) => void;

/**
 * The change events of 2026-07-28 `subscriptions/listen` streams, over both transports: serveHttp
 * hands it to the SDK's HTTP entry, serveStdio relays it through its connection's instance
 * (`relayToStreams`). A stream belongs to the client
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
   * Forwards `toolset`'s tool, prompt and resource changes to the streams of `client` (the toolset
   * itself, or undefined for the shared one); returns the unsubscribe.
   */
  follow(toolset: McpToolsetLike, client: McpToolsetLike | undefined): () => void {
    const stops: Array<() => void> = [];
    if (toolset.onToolsChanged)
      stops.push(toolset.onToolsChanged(() => this.publishFor(client, { kind: "tools_list_changed" })));
    if (toolset.prompts?.available && toolset.prompts.watch)
      stops.push(toolset.prompts.watch(() => this.publishFor(client, { kind: "prompts_list_changed" })));
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

/**
 * Sends `bus`'s events as notifications from a 2026-07-28 stdio connection's instance: the SDK's
 * stdio entry has no bus, it stamps its instance's change notifications onto the listen streams
 * whose filter asks for them (and drops the rest). Stops when the instance closes.
 */
export function relayToStreams(bus: ServerEventBus, server: Server): void {
  const stop = bus.subscribe((event) => {
    if (server.transport) void server.notification(notificationOf(event)).catch(() => {});
  });
  const closed = server.onclose;
  server.onclose = () => {
    stop();
    closed?.();
  };
}

function notificationOf(event: ServerEvent) {
  switch (event.kind) {
    case "tools_list_changed":
      return { method: "notifications/tools/list_changed" as const };
    case "prompts_list_changed":
      return { method: "notifications/prompts/list_changed" as const };
    case "resources_list_changed":
      return { method: "notifications/resources/list_changed" as const };
    case "resource_updated":
      return { method: "notifications/resources/updated" as const, params: { uri: event.uri } };
  }
}

function deliver(listener: Listener, event: ServerEvent): void {
  try {
    listener(event);
  } catch {
    // a stream that broke is the SDK's to tear down; the others still hear the event
  }
}
