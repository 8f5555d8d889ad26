import { TailBuffer } from "./output.js";
import { countNewlines, SpillFile } from "./spill.js";

/** Share of the output limit given to the head when output is cut (the tail gets the rest). */
const HEAD_SHARE = 0.2;

export interface SessionOutputOptions {
  sessionId: string;
  /** What a result may show (head + tail) and what memory keeps of the tail. */
  maxOutputChars: number;
  /** Unread output kept for `poll`. */
  pendingMaxOutputChars: number;
  /** Where the whole output goes once it passes `maxOutputChars` (undefined: it is not kept). */
  spillDir?: (() => string) | undefined;
  maxSpillChars?: number | undefined;
  /** Why there is no spill directory, for the notice (default "no spill directory"). */
  noSpillReason?: string | undefined;
}

/**
 * Everything a session knows about its output: counts of the whole stream, its first and last
 * characters in memory, what `poll` has not read yet, and (past the limit) the whole stream in a
 * spill file, so nothing that was cut is out of reach.
 */
export class SessionOutput {
  /** Characters and `\n`s produced so far. */
  total = 0;
  newlines = 0;
  private lastChar = "";
  /** The first characters of the stream (at most HEAD_SHARE of the limit). */
  head = "";
  readonly headMax: number;
  readonly tail: TailBuffer;
  readonly pending: TailBuffer;
  spill: SpillFile | undefined;
  /** Why the spill file could not be written (then cut output is gone). */
  spillProblem: string | undefined;
  /** Where the last poll stopped: stream position and the line it lies on. */
  readChars = 0;
  readLine = 0;

  constructor(private readonly options: SessionOutputOptions) {
    this.headMax = Math.floor(options.maxOutputChars * HEAD_SHARE);
    this.tail = new TailBuffer(options.maxOutputChars);
    this.pending = new TailBuffer(options.pendingMaxOutputChars);
  }

  get maxChars(): number {
    return this.options.maxOutputChars;
  }

  append(chunk: string): void {
    if (!chunk) return;
    if (this.head.length < this.headMax) this.head += chunk.slice(0, this.headMax - this.head.length);
    if (this.spill) this.writeSpill(chunk);
    else if (!this.spillProblem && this.total + chunk.length > this.options.maxOutputChars) {
      // nothing was dropped yet: the tail buffer still holds the whole stream
      this.startSpill(this.tail.value + chunk);
    }
    this.tail.append(chunk);
    this.pending.append(chunk);
    this.total += chunk.length;
    this.newlines += countNewlines(chunk);
    this.lastChar = chunk[chunk.length - 1]!;
  }

  /** Lines of the stream: each `\n` ends one, and a last line without one counts. */
  get totalLines(): number {
    return this.newlines + (this.total > 0 && this.lastChar !== "\n" ? 1 : 0);
  }

  /** The stream passed the limit: a result shows its head and tail only. */
  get overflowed(): boolean {
    return this.total > this.options.maxOutputChars;
  }

  /** The whole stream is on disk (or in memory): any line can be read back. */
  get complete(): boolean {
    return !this.overflowed || (this.spill !== undefined && !this.spill.capped);
  }

  /**
   * The part of the tail buffer that starts on a line boundary, and the 0-based line it starts
   * on. When the buffer still holds the whole stream that is all of it, from line 0.
   */
  memoryLines(): { text: string; firstLine: number } {
    const value = this.tail.value;
    if (!this.tail.truncated) return { text: value, firstLine: 0 };
    const nl = value.indexOf("\n");
    const text = nl === -1 ? "" : value.slice(nl + 1);
    return { text, firstLine: this.newlines - countNewlines(text) };
  }

  /** The process ended: no more output comes; the spill file is complete. */
  finish(): void {
    this.spill?.close();
  }

  /** Removes the spill file (the session is forgotten). */
  dispose(): void {
    this.spill?.remove();
  }

  private startSpill(soFar: string): void {
    const dir = this.options.spillDir;
    if (!dir) {
      this.spillProblem = this.options.noSpillReason ?? "no spill directory";
      return;
    }
    try {
      this.spill = new SpillFile(dir(), this.options.sessionId, this.options.maxSpillChars);
      this.spill.write(soFar);
    } catch (error) {
      this.spill?.remove();
      this.spill = undefined;
      this.spillProblem = (error as Error).message;
    }
  }

  private writeSpill(chunk: string): void {
    try {
      this.spill!.write(chunk);
    } catch (error) {
      // a full disk: keep what is there, say the rest is not kept
      this.spill!.capped = true;
      this.spillProblem = (error as Error).message;
    }
  }
}
