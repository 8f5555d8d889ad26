import { parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { serveStdio as serveStdioEntry } from "@modelcontextprotocol/server/stdio";
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
  return serveStdioEntry(() => createMcpServer(toolset, { ...options, transport: "pipe" }), {
    transport: wire,
    onerror: (error) => options.log?.(error.message),
  });
}
