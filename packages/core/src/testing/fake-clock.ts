import type { Clock } from "../time/clock.js";

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A Clock that moves only when a test says so. Timers fire in due order (ties in the order they
 * were set); a timer set while advancing fires in the same advance if it falls due within it.
 */
export class FakeClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: Timer[] = [];
  #waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), fn };
    this.#timers.push(timer);
    this.#notify();
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((timer) => timer.id !== handle);
  }

  /** How many timers are pending. */
  get pending(): number {
    return this.#timers.length;
  }

  /** When the earliest pending timer falls due, or undefined when none is pending. */
  nextDue(): number | undefined {
    return this.#earliest()?.at;
  }

  /** Resolves once at least `count` timers are pending: the event that proves code is waiting. */
  whenPending(count = 1): Promise<void> {
    if (this.#timers.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** Moves time forward by `ms`, firing every timer that falls due, synchronously. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (let timer = this.#due(target); timer; timer = this.#due(target)) this.#fire(timer);
    this.#now = target;
  }

  /**
   * As `advance`, but lets promise callbacks run after each timer, so code that awaits a timer
   * and then sets the next one (a retry loop, a poll) is driven through the whole span.
   */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.#now + ms;
    await flushMicrotasks();
    for (let timer = this.#due(target); timer; timer = this.#due(target)) {
      this.#fire(timer);
      await flushMicrotasks();
    }
    this.#now = target;
  }

  /** Fires the earliest pending timer (moving time to it); false when none is pending. */
  runNext(): boolean {
    const timer = this.#earliest();
    if (!timer) return false;
    this.#fire(timer);
    return true;
  }

  #earliest(): Timer | undefined {
    let first: Timer | undefined;
    for (const timer of this.#timers) if (!first || timer.at < first.at) first = timer;
    return first;
  }

  #due(target: number): Timer | undefined {
    const timer = this.#earliest();
    return timer && timer.at <= target ? timer : undefined;
  }

  #fire(timer: Timer): void {
    this.#timers = this.#timers.filter((t) => t !== timer);
    this.#now = Math.max(this.#now, timer.at);
    timer.fn();
  }

  #notify(): void {
    const ready = this.#waiters.filter((w) => this.#timers.length >= w.count);
    this.#waiters = this.#waiters.filter((w) => this.#timers.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }
}

// A macrotask turn: every promise callback queued so far (and the ones they queue) has run.
function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
