import { createLifecycle, type LifecycleOptions, type McpServing } from "./lifecycle.js";
import { type CreateMcpServerOptions, createMcpServer, type McpToolsetLike } from "./server.js";
import { LineTransport, type LineTransportOptions } from "./stdio-transport.js";

export interface ServeStdioOptions extends CreateMcpServerOptions, LifecycleOptions, LineTransportOptions {
  /** Default `process.stdin`. */
  input?: NodeJS.ReadableStream;
  /** Default `process.stdout` (it belongs to the protocol: log elsewhere). */
  output?: NodeJS.WritableStream;
}

/**
 * Serves a toolset over MCP on stdio until end of input or a stop signal (SIGTERM, SIGINT,
 * SIGHUP), then disposes it: running calls are answered first at end of input (cancelled on a
 * signal), then `toolset.dispose()` and `onStop` run. Messages over `maxMessageBytes` (default
 * 64 MiB) get a JSON-RPC error naming the limit and the server keeps serving.
 */
export async function serveStdio(
  toolset: McpToolsetLike,
  options: ServeStdioOptions = {},
): Promise<McpServing> {
  const server = createMcpServer(toolset, options);
  const transport = new LineTransport(
    options.input ?? process.stdin,
    options.output ?? process.stdout,
    options,
  );
  let inputEnded = false;
  (options.input ?? process.stdin).once("end", () => {
    inputEnded = true;
  });
  const life = createLifecycle(toolset, options, () => server.close());
  server.onclose = () => void life.stopWith(inputEnded ? "end of input" : "transport closed");
  server.onerror = (error) => options.log?.(error.message);
  await server.connect(transport);
  return { done: life.done, stop: life.stop };
}
