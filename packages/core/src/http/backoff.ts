import type { Clock } from "../time/clock.js";
import { delay } from "../time/delay.js";

/** Exponential backoff with "equal jitter": between half and all of `base * 2^(retry-1)`, capped. */
export function backoffDelay(
  retry: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
) {
  return backoffPause(retry, { baseMs, maxMs, random });
}

/** How the pauses between tries grow. */
export interface BackoffSchedule {
  /** The pause before the first retry. */
  baseMs: number;
  /** No pause is longer (default: no cap). */
  maxMs?: number | undefined;
  /** Each pause is this many times the one before (default 2). */
  factor?: number | undefined;
  /**
   * "equal" (default): between half and all of the pause, so many clients that failed together do
   * not retry together; "none": the pause exactly (a schedule a person reads, or one process's poll).
   */
  jitter?: "equal" | "none" | undefined;
  random?: (() => number) | undefined;
}

/** The pause before retry number `retry` (1 for the first) on `schedule`. */
export function backoffPause(retry: number, schedule: BackoffSchedule): number {
  const factor = schedule.factor ?? 2;
  const full = Math.min(
    schedule.maxMs ?? Number.POSITIVE_INFINITY,
    schedule.baseMs * factor ** Math.max(0, retry - 1),
  );
  if (schedule.jitter === "none") return full;
  const random = schedule.random ?? Math.random;
  return Math.round(full / 2 + random() * (full / 2));
}

export interface RetryWithBackoffOptions extends BackoffSchedule {
  /** Tries in all, the first included (default: until one succeeds or `signal` aborts). */
  attempts?: number | undefined;
  /** Aborts the wait and stops further tries: `retry` rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  clock?: Clock | undefined;
  /** Whether a failure is worth another try (default: every one); a false one is thrown at once. */
  retryable?: ((error: unknown, attempt: number) => boolean) | undefined;
  /** Told, and awaited, before each pause: why try `attempt` failed and how long until the next. */
  onRetry?: ((error: unknown, waitMs: number, attempt: number) => void | Promise<void>) | undefined;
}

/**
 * Runs `run` until it resolves, pausing on `options`' schedule between failed tries. The last
 * failure is thrown when the tries run out or a failure is not retryable; no try starts once
 * `signal` has aborted.
 */
export async function retryWithBackoff<T>(
  run: (attempt: number) => Promise<T>,
  options: RetryWithBackoffOptions,
): Promise<T> {
  const attempts = options.attempts ?? Number.POSITIVE_INFINITY;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await run(attempt);
    } catch (error) {
      if (attempt >= attempts || options.retryable?.(error, attempt) === false) throw error;
      const wait = backoffPause(attempt, options);
      await options.onRetry?.(error, wait, attempt);
      await delay(wait, { clock: options.clock, signal: options.signal });
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts: `delay` with a signal. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, { signal });
}
