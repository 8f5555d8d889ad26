/**
 * Time and timers behind one small interface, so everything that schedules can be driven by a
 * fake clock in tests (`FakeClock` from `@clawtools/core/testing`).
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

// Node fires a timer longer than 2^31-1 ms after 1 ms (with a warning); longer waits are chained.
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface ChainedTimer {
  current: ReturnType<typeof setTimeout>;
}

function isChained(handle: unknown): handle is ChainedTimer {
  return typeof handle === "object" && handle !== null && "current" in handle;
}

// The one place core calls the global timer functions: every other timer goes through a Clock.
function realTimer(fn: () => void, ms: number, ref: boolean): unknown {
  if (ms <= MAX_TIMER_MS) {
    const handle = setTimeout(fn, Math.max(0, ms));
    if (!ref) handle.unref();
    return handle;
  }
  const chain: ChainedTimer = { current: undefined as unknown as ReturnType<typeof setTimeout> };
  const deadline = Date.now() + ms;
  const step = () => {
    const left = deadline - Date.now();
    if (left <= 0) return fn();
    chain.current = setTimeout(step, Math.min(left, MAX_TIMER_MS));
    if (!ref) chain.current.unref();
  };
  step();
  return chain;
}

function clearRealTimer(handle: unknown): void {
  clearTimeout((isChained(handle) ? handle.current : handle) as ReturnType<typeof setTimeout>);
}

/** Real time; a pending timer holds the process open, as the global `setTimeout` does. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => realTimer(fn, ms, true),
  clearTimeout: clearRealTimer,
});

/**
 * Real time for background schedulers (cron, leases, sweepers): a pending timer never holds the
 * process open, so a host exits once its real work is done.
 */
export const backgroundClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (fn: () => void, ms: number) => realTimer(fn, ms, false),
  clearTimeout: clearRealTimer,
});
