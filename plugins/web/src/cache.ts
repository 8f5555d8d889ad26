/** A small TTL cache with FIFO eviction (OpenClaw: 15 minutes, 100 entries, 0 TTL disables). */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();
  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly maxEntries = 100,
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() > entry.expires) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
