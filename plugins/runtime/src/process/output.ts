/** Output caps (OpenClaw): whole output keeps its last 200,000 chars, unread output 30,000, tail 2,000. */
export const MAX_OUTPUT_CHARS = 200_000;
export const MAX_PENDING_CHARS = 30_000;
export const TAIL_CHARS = 2_000;

/** A text buffer that keeps only its last `max` characters. */
export class TailBuffer {
  private text = "";
  truncated = false;
  constructor(private readonly max: number) {}
  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.max) {
      this.text = this.text.slice(this.text.length - this.max);
      this.truncated = true;
    }
  }
  get value(): string {
    return this.text;
  }
  take(): string {
    const out = this.text;
    this.text = "";
    return out;
  }
  clear(): void {
    this.text = "";
  }
}
