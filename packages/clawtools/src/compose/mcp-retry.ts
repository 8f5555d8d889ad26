import { backgroundClock, type Clock, delay } from "@clawtools/core/time";
import { retryWithBackoff } from "@clawtools/core/http";

/** Waits between tries of a server that did not start: 1 s, doubling, at most a minute. */
export const MCP_RETRY_FIRST_MS = 1000;
export const MCP_RETRY_MAX_MS = 60_000;

export interface RetryOptions {
  /** Aborted when serve stops: no further try starts, and a server that answers late is closed. */
  signal: AbortSignal;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Default `backgroundClock`: a pending retry never keeps the process alive. */
  clock?: Clock;
}

/**
 * Tries `connect` again with capped exponential backoff until it succeeds or `signal` aborts,
 * then hands the result to `onBack`. A result that arrives after the abort is closed instead, and
 * no try starts once `signal` has aborted. Resolves when the loop is over (serve's stop awaits it,
 * so no server process it started outlives serve).
 * Never rejects: the outcome of every try is the caller's through `onBack` and `onFailure`.
 */
export async function retryUntilConnected<T extends { close(): Promise<void> }>(
  /** Given the stop signal: a try under way when serve stops gives up (a started process is ended). */
  connect: (signal: AbortSignal) => Promise<T>,
  onBack: (connected: T) => void | Promise<void>,
  options: RetryOptions & { onFailure?: (error: Error, nextDelayMs: number) => void },
): Promise<void> {
  const { signal } = options;
  const max = options.maxDelayMs ?? MCP_RETRY_MAX_MS;
  const first = Math.min(options.firstDelayMs ?? MCP_RETRY_FIRST_MS, max);
  const clock = options.clock ?? backgroundClock;
  let connected: T;
  try {
    await delay(first, { clock, signal });
    connected = await retryWithBackoff(() => connect(signal), {
      baseMs: Math.min(first * 2, max),
      maxMs: max,
      jitter: "none",
      signal,
      clock,
      retryable: () => !signal.aborted,
      onRetry: (error, wait) => options.onFailure?.(error as Error, wait),
    });
  } catch {
    return; // serve stopped while waiting or trying
  }
  // serve stopped during the try: the server it started must not outlive it
  if (signal.aborted) {
    await connected.close().catch(() => {});
    return;
  }
  await onBack(connected);
}
