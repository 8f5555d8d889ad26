/** Output caps (OpenClaw): whole output keeps its last 200,000 chars, unread output 30,000, tail 2,000. */
export const MAX_OUTPUT_CHARS = 200_000;
export const MAX_PENDING_CHARS = 30_000;
export const TAIL_CHARS = 2_000;

/**
 * A text buffer that keeps only its last `max` characters. Chunks are kept as they come and
 * compacted only when twice the cap has piled up, so a fast producer costs one copy per
 * `max` characters instead of one per chunk.
 */
export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;
  truncated = false;
  constructor(private readonly max: number) {}

  append(chunk: string): void {
    if (!chunk) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length > this.max * 2) this.compact();
  }

  private compact(): void {
    let text = this.chunks.join("");
    if (text.length > this.max) {
      text = text.slice(text.length - this.max);
      this.truncated = true;
    }
    this.chunks = text ? [text] : [];
    this.length = text.length;
  }

  get value(): string {
    this.compact();
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
