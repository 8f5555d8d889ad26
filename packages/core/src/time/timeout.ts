import { ClawtoolsError } from "../clawtools-error.js";
import { type Clock, systemClock } from "./clock.js";
import { checkDuration } from "./delay.js";

const TIMEOUT_ERROR = Symbol.for("clawtools.error.TimeoutError");

/** A wait that ran out of time: names what timed out (`what`) and after how long (`ms`). */
export class TimeoutError extends ClawtoolsError {
  static override readonly marker: symbol = TIMEOUT_ERROR;
  readonly [TIMEOUT_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_TIMEOUT";
  }
  override name = "TimeoutError";
  readonly what: string;
  readonly ms: number;
  constructor(what: string, ms: number, message?: string) {
    super(message ?? `${what} timed out after ${ms} ms`);
    this.what = what;
    this.ms = ms;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isTimeoutError(value);
  }
}

/** Whether `error` is a TimeoutError from any copy of core (its brand, not the prototype). */
export function isTimeoutError(error: unknown): error is TimeoutError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[TIMEOUT_ERROR] === true
  );
}

export interface WithTimeoutOptions<T> {
  /** The caller's signal: aborting it aborts the work and rejects with its reason. */
  signal?: AbortSignal | undefined;
  clock?: Clock | undefined;
  /** What is being waited for, named in the error (`"approval" timed out after 5000 ms`). */
  what?: string;
  /** The whole error message, when `what timed out after N ms` does not read well. */
  message?: string;
  /** Settles the result on timeout instead of the TimeoutError (a fallback value, or a throw). */
  onTimeout?: () => T | Promise<T>;
}

type Work<T> = Promise<T> | ((signal: AbortSignal) => Promise<T>);

/**
 * Settles with `work`, or fails with a TimeoutError after `ms` (`Infinity`: no limit). A function
 * gets a signal that aborts on timeout or when the caller's signal aborts, so the work stops too.
 * The timer and the listener are always released.
 */
export function withTimeout<T>(work: Work<T>, ms: number, options: WithTimeoutOptions<T> = {}): Promise<T> {
  checkDuration(ms, "timeout");
  const { signal, clock = systemClock } = options;
  const inner = new AbortController();
  if (signal?.aborted) {
    inner.abort(signal.reason);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    let handle: unknown;
    let done = false;
    const finish = () => {
      done = true;
      if (handle !== undefined) clock.clearTimeout(handle);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      if (done) return;
      finish();
      inner.abort(signal?.reason);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    if (ms !== Number.POSITIVE_INFINITY) {
      handle = clock.setTimeout(() => {
        if (done) return;
        finish();
        const error = new TimeoutError(options.what ?? "operation", ms, options.message);
        inner.abort(error);
        if (!options.onTimeout) return reject(error);
        Promise.resolve().then(options.onTimeout).then(resolve, reject);
      }, ms);
    }
    let promise: Promise<T>;
    try {
      promise = typeof work === "function" ? work(inner.signal) : work;
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (value) => {
        if (done) return;
        finish();
        resolve(value);
      },
      (error) => {
        if (done) return;
        finish();
        reject(error);
      },
    );
  });
}
