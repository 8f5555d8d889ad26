import { delay } from "@clawtools/core/time";
import { backoffDelay } from "@clawtools/core/http";
import type { GatewayClient, HelloOk } from "./client.js";
import { isGatewayError } from "./errors.js";

export interface ConnectRetryOptions {
  /** How long a Gateway that says "retry" is waited for; default 60 s. */
  waitMs?: number;
  /** First pause between attempts (doubling, jittered, at most 5 s); default 500 ms. */
  minDelayMs?: number;
  /** Told before each pause: why the attempt failed and how long until the next one. */
  onRetry?: (error: Error, waitMs: number, attempt: number) => void;
}

/**
 * Connects, dialling again while the Gateway answers that it is starting (`UNAVAILABLE: gateway
 * starting; retry shortly`), within a bound. A Gateway that cannot be reached at all ends it at
 * once (a careless --gateway fails the start in one line, not after a minute), and so does a
 * refusal (bad token, wrong protocol, unpaired device) with the Gateway's reason, and the bound
 * (with the last reason and how long it waited). Reconnects after a connection once stood are
 * the client's own loop.
 */
export async function connectWithRetry(
  client: GatewayClient,
  options: ConnectRetryOptions = {},
): Promise<HelloOk> {
  const waitMs = options.waitMs ?? 60_000;
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.connect();
    } catch (error) {
      // only the Gateway's own "not yet" is waited for: an unreachable address is a mistake
      if (!isGatewayError(error) || !error.retryable || error.code === "CONNECT_FAILED") throw error;
      const left = deadline - Date.now();
      if (left <= 0)
        throw Object.assign(
          new Error(`${error.message} (still so after ${Math.round(waitMs / 1000)} s of retries)`),
          {
            cause: error,
          },
        );
      const pause = Math.min(
        left,
        Math.max(error.retryAfterMs ?? 0, backoffDelay(attempt, options.minDelayMs ?? 500, 5_000)),
      );
      options.onRetry?.(error, pause, attempt);
      await delay(pause);
    }
  }
}
