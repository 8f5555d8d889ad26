import type { ClientChannel } from "@clawtools/core/client";
import type { ClientCapabilities, ServerContext } from "@modelcontextprotocol/server";
import { channelOf } from "./client-channel.js";

/** The SDK's per-request timeout is not used: the call's signal (and core's approval timeout) end a question. */
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The client of a call on a 2025-era connection: questions are server-to-client requests sent on
 * the call's own request (Streamable HTTP routes them to the caller), log messages
 * `notifications/message` filtered by the level the client set (`logging/setLevel`).
 */
export function pushChannel(ctx: ServerContext, capabilities: ClientCapabilities | undefined): ClientChannel {
  return channelOf({
    capabilities,
    log: (level, data, logger) => void ctx.mcpReq.log(level, data, logger).catch(() => {}),
    ask: (_key, request, signal) =>
      ctx.mcpReq.send(request as never, {
        signal: signal ? AbortSignal.any([signal, ctx.mcpReq.signal]) : ctx.mcpReq.signal,
        timeout: NO_SDK_TIMEOUT_MS,
      }),
  });
}
