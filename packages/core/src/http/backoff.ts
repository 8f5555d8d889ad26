import { delay } from "../time/delay.js";

/** Exponential backoff with "equal jitter": between half and all of `base * 2^(retry-1)`, capped. */
export function backoffDelay(
  retry: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
) {
  const full = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(full / 2 + random() * (full / 2));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts: `delay` with a signal. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, { signal });
}
