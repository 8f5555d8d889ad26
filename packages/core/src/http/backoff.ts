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

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (the timer is cleared). */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
