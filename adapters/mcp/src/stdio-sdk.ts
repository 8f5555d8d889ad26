import { parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { serveStdio as serveStdioEntry } from "@modelcontextprotocol/server/stdio";
import { ClientEventBus, relayToStreams } from "./listen-bus.js";
import { createMcpServer, type McpToolsetLike } from "./server.js";
import type { ServeStdioOptions } from "./stdio.js";

/**
 * The part of `serveStdio` that needs the SDK, loaded by its front on the first message the front
 * does not answer itself. SDK v2's stdio entry decides the protocol era once per connection.
 */
export { parseJSONRPCMessage };

export function serveWithSdk(
  toolset: McpToolsetLike,
  options: ServeStdioOptions,
  wire: Transport,
): { close(): Promise<void> } {
  // one client on stdio: its 2026-07-28 listen streams hear the toolset's changes, as serveHttp's do
  const bus = new ClientEventBus(() => undefined);
  const unfollow = bus.follow(toolset, undefined);
  const entry = serveStdioEntry(
    ({ era }) => {
      const server = createMcpServer(toolset, { ...options, transport: "pipe" });
      // a 2025-era instance pushes its changes itself, once initialised (createMcpServer)
      if (era === "modern") relayToStreams(bus, server);
      return server;
    },
    { transport: wire, onerror: (error) => options.log?.(error.message) },
  );
  return {
    close: async () => {
      unfollow();
      await entry.close();
    },
  };
}
