import { type Clock, systemClock } from "./clock.js";

export interface DelayOptions {
  /** Rejects with the signal's reason as soon as it aborts; the timer is cleared. */
  signal?: AbortSignal | undefined;
  /** Defaults to `systemClock` (the wait holds the process open). */
  clock?: Clock | undefined;
}

/** A clear error for a wait that is not a duration, instead of Node's silent 1 ms. */
export function checkDuration(ms: number, label: string): void {
  if (typeof ms !== "number" || Number.isNaN(ms) || ms < 0) {
    throw new RangeError(`${label} must be a non-negative number of milliseconds, got ${String(ms)}`);
  }
}

/** Waits `ms` on the clock, or rejects with the signal's reason when it aborts first. */
export function delay(ms: number, options: DelayOptions = {}): Promise<void> {
  checkDuration(ms, "delay");
  if (ms === Number.POSITIVE_INFINITY)
    throw new RangeError("delay must be finite (use an abort signal to wait forever)");
  const { signal, clock = systemClock } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
