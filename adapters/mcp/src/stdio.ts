import { createLifecycle, type LifecycleOptions, type McpServing } from "./lifecycle.js";
import type { CreateMcpServerOptions, McpToolsetLike } from "./server.js";
import { StdioFront } from "./stdio-front.js";
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
 *
 * Both protocol eras are served (SDK v2's stdio entry decides once per connection): a client that
 * opens with `initialize` gets 2025-11-25 (or the older revision it asks for), one that opens with
 * `server/discover` gets 2026-07-28.
 *
 * The SDK loads on the first message that is not part of a 2025-era opening (`initialize`,
 * `notifications/initialized`, `ping`, `tools/list`) or a plain `tools/call`: those are answered
 * first, as the SDK server answers them (see `StdioFront`), so a client lists and calls sooner.
 */
export async function serveStdio(
  toolset: McpToolsetLike,
  options: ServeStdioOptions = {},
): Promise<McpServing> {
  const input = options.input ?? process.stdin;
  const transport = new LineTransport(input, options.output ?? process.stdout, options);
  let inputEnded = false;
  input.once("end", () => {
    inputEnded = true;
  });
  const front = new StdioFront(transport, toolset, options, () => import("./stdio-sdk.js"));
  const life = createLifecycle(toolset, options, () => front.close());
  // the transport's close (end of input, a broken pipe) stops us
  void transport.done.then(() => life.stopWith(inputEnded ? "end of input" : "transport closed"));
  await front.start();
  return { done: life.done, stop: life.stop };
}
