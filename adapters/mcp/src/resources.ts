import { ProtocolError, type Server, type ServerContext } from "@modelcontextprotocol/server";
import type { McpResourcesLike } from "./resources-capability.js";

/**
 * Serves a toolset's resources on `server`: `resources/list`, `resources/templates/list`,
 * `resources/read` (a URI nobody serves: -32602 with the URI in `data`, SEP-2164) and, for
 * 2025-era connections, `resources/subscribe` / `unsubscribe` with `notifications/resources/updated`
 * for the URIs this connection subscribed to, and `list_changed` when the list changes.
 */
export function serveResources(
  server: Server,
  resources: McpResourcesLike,
  before: (ctx: ServerContext) => void | Promise<void>,
): void {
  const subscribed = new Set<string>();
  server.setRequestHandler("resources/list", async (_request, ctx) => {
    await before(ctx);
    return { resources: await resources.list() };
  });
  server.setRequestHandler("resources/templates/list", async (_request, ctx) => {
    await before(ctx);
    return { resourceTemplates: await resources.templates() };
  });
  server.setRequestHandler("resources/read", async (request, ctx) => {
    await before(ctx);
    try {
      // exactly one of text and blob is set (ToolsetResources.read)
      const contents = (await resources.read(request.params.uri)) as { uri: string; text: string };
      return { contents: [contents] };
    } catch (error) {
      const coded = error as { code?: unknown; data?: unknown; message?: string };
      if (typeof coded.code === "number")
        throw new ProtocolError(coded.code, coded.message ?? "", coded.data);
      // a read that failed (a file gone, a backend down) says why, naming the URI
      throw new ProtocolError(
        -32603,
        `Reading ${request.params.uri} failed: ${coded.message ?? String(error)}`,
        {
          uri: request.params.uri,
        },
      );
    }
  });
  server.setRequestHandler("resources/subscribe", async (request, ctx) => {
    await before(ctx);
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async (request, ctx) => {
    await before(ctx);
    subscribed.delete(request.params.uri);
    return {};
  });
  if (!resources.watch) return;
  const watch = resources.watch.bind(resources);
  // only a 2025-era connection (initialized) has a channel to push on: a stateless request's
  // server never watches, so nothing is left listening after it
  const initialized = server.oninitialized;
  server.oninitialized = () => {
    initialized?.();
    const stop = watch((change) => {
      if (!server.transport) return;
      if (change.uri === undefined) void server.sendResourceListChanged().catch(() => {});
      else if (subscribed.has(change.uri))
        void server.sendResourceUpdated({ uri: change.uri }).catch(() => {});
    });
    const closed = server.onclose;
    server.onclose = () => {
      stop();
      closed?.();
    };
  };
}
