/** Something that releases what it holds (processes, databases, browsers, timers). */
export type DisposeFn = () => void | Promise<void>;

/**
 * A stack of clean-ups run once, last registered first. `dispose()` is idempotent: later calls
 * return the first call's promise. A failing clean-up does not stop the others; the errors are
 * thrown together afterwards.
 */
export class Disposer {
  private readonly stack: DisposeFn[] = [];
  private running: Promise<void> | undefined;

  get disposed(): boolean {
    return this.running !== undefined;
  }

  /** Registers a clean-up; one added after dispose() runs at once. */
  add(fn: DisposeFn): void {
    if (this.running) {
      void Promise.resolve()
        .then(fn)
        .catch(() => {});
      return;
    }
    this.stack.push(fn);
  }

  dispose(): Promise<void> {
    this.running ??= (async () => {
      const errors: unknown[] = [];
      while (this.stack.length > 0) {
        const fn = this.stack.pop()!;
        try {
          await fn();
        } catch (error) {
          errors.push(error);
        }
      }
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, "several clean-ups failed");
    })();
    return this.running;
  }
}
