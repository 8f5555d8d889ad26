/** Steps queued by key: each runs once the previous step under its key has settled. */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, step: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(step, step);
    const tail = next.then(
      () => {},
      () => {},
    );
    this.tails.set(key, tail);
    // the key is forgotten once its last step settles
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
