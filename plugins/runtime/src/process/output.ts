/**
 * A text buffer that keeps only its last `max` characters. Chunks are kept as they come; once
 * twice the cap has piled up, whole chunks are dropped from the front and only the first kept
 * one is sliced, so a fast producer never pays for joining text it will throw away.
 */
export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;
  truncated = false;
  constructor(readonly max: number) {}

  append(chunk: string): void {
    if (!chunk) return;
    if (chunk.length >= this.max) {
      // one chunk fills the whole window: everything before it goes
      if (this.length > 0 || chunk.length > this.max) this.truncated = true;
      this.chunks = [chunk.length > this.max ? chunk.slice(chunk.length - this.max) : chunk];
      this.length = this.max;
      return;
    }
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length > this.max * 2) this.trim();
  }

  /** Drops what lies before the last `max` characters. */
  private trim(): void {
    if (this.length <= this.max) return;
    let drop = 0;
    while (this.length - this.chunks[drop]!.length >= this.max) this.length -= this.chunks[drop++]!.length;
    if (drop > 0) this.chunks.splice(0, drop);
    const excess = this.length - this.max;
    if (excess > 0) {
      this.chunks[0] = this.chunks[0]!.slice(excess);
      this.length = this.max;
    }
    this.truncated = true;
  }

  get isEmpty(): boolean {
    return this.length === 0;
  }

  get value(): string {
    this.trim();
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    return this.chunks[0] ?? "";
  }

  /** The last `n` characters, without compacting everything. */
  tail(n: number): string {
    let out = "";
    for (let i = this.chunks.length - 1; i >= 0 && out.length < n; i--) out = this.chunks[i]! + out;
    return out.length > n ? out.slice(out.length - n) : out;
  }

  take(): string {
    const out = this.value;
    this.clear();
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
  }
}
