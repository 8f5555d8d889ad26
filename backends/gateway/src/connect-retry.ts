import { backoffDelay, delay } from "@clawtools/core";
import type { GatewayClient, HelloOk } from "./client.js";
import { isGatewayError } from "./errors.js";

export interface ConnectRetryOptions {
  /** How long a Gateway that says "retry" (or cannot be reached yet) is waited for; default 60 s. */
  waitMs?: number;
  /** First pause between attempts (doubling, jittered, at most 5 s); default 500 ms. */
  minDelayMs?: number;
  /** Told before each pause: why the attempt failed and how long until the next one. */
  onRetry?: (error: Error, waitMs: number, attempt: number) => void;
}

/**
 * Connects, dialling again while the Gateway answers that it is starting (`UNAVAILABLE: gateway
 * starting; retry shortly`) or cannot be reached yet, within a bound. A refusal (bad token,
 * wrong protocol, unpaired device) ends it at once with the Gateway's reason, and so does the
 * bound (with the last reason and how long it waited).
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
      if (!isGatewayError(error) || !error.retryable) throw error;
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
