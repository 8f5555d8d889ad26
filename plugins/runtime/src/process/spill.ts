import { randomBytes } from "node:crypto";
import {
  closeSync,
  createReadStream,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";

/** The most a spill file holds (64 Mi characters): a runaway producer never fills the disk. */
export const MAX_SPILL_CHARS = 64 * 1024 * 1024;
/** Spill files older than this are left over from a server that died: removed on the next spill. */
const STALE_MS = 3 * 60 * 60_000 + 60_000;

/** Counts `\n` in a string (one linear pass). */
export function countNewlines(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

const prunedDirs = new Set<string>();

function pruneStale(dir: string): void {
  if (prunedDirs.has(dir)) return;
  prunedDirs.add(dir);
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".log")) continue;
    const file = path.join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > STALE_MS) unlinkSync(file);
    } catch {
      // another server removed it first
    }
  }
}

/**
 * The whole output of one session, on disk (private file, written synchronously so a fast
 * producer is slowed by the disk instead of piling up in memory). Holds only whole lines once
 * the cap is reached, so every line in it reads back complete.
 */
export class SpillFile {
  readonly path: string;
  chars = 0;
  newlines = 0;
  /** The cap was reached: output after `chars` characters is not in the file. */
  capped = false;
  private fd: number | undefined;
  private removed = false;

  constructor(
    dir: string,
    sessionId: string,
    private readonly maxChars = MAX_SPILL_CHARS,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    pruneStale(dir);
    this.path = path.join(dir, `exec-${sessionId}-${randomBytes(4).toString("hex")}.log`);
    this.fd = openSync(this.path, "wx", 0o600);
  }

  write(chunk: string): void {
    if (this.capped || this.removed) return;
    // a PTY can deliver its last output after the exit closed the file: append to it
    this.fd ??= openSync(this.path, "a", 0o600);
    let part = chunk;
    // a chunk that exactly fills the file counts too: it may end mid-line
    if (this.chars + chunk.length >= this.maxChars) {
      // keep whole lines only: cut after the last newline that fits
      const cut = chunk.lastIndexOf("\n", this.maxChars - this.chars - 1);
      part = cut === -1 ? "" : chunk.slice(0, cut + 1);
      this.capped = true;
    }
    if (!part) return;
    writeSync(this.fd, part);
    this.chars += part.length;
    this.newlines += countNewlines(part);
  }

  /** No more output will come (the process ended). */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  remove(): void {
    this.removed = true;
    this.close();
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

export interface ReadLinesResult {
  lines: string[];
  /** The budget stopped the read before `to`; `cutLine` says the last line was cut mid-line. */
  stoppedAt?: number;
  cutLine?: boolean;
}

/**
 * Lines `from` (0-based) up to `to` (exclusive) of a file, read as a stream (a 64 MB file is
 * never held whole), at most `budget` characters: the read stops at the last whole line that fits,
 * and cuts a first line longer than the budget (saying so).
 */
export async function readFileLines(
  file: string,
  from: number,
  to: number,
  budget: number,
): Promise<ReadLinesResult> {
  const lines: string[] = [];
  let used = 0;
  let index = 0;
  let partial = "";
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  const take = (line: string): boolean => {
    if (index >= from && index < to) {
      if (used + line.length > budget) {
        if (lines.length === 0) {
          lines.push(line.slice(0, budget));
          return stopWith({ stoppedAt: index + 1, cutLine: true });
        }
        return stopWith({ stoppedAt: index });
      }
      lines.push(line);
      used += line.length + 1;
    }
    index++;
    return index >= to;
  };
  let result: ReadLinesResult | undefined;
  const stopWith = (r: Omit<ReadLinesResult, "lines">) => {
    result = { lines, ...r };
    return true;
  };
  try {
    outer: for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      for (let nl = chunk.indexOf("\n"); nl !== -1; nl = chunk.indexOf("\n", start)) {
        const line = partial + chunk.slice(start, nl);
        partial = "";
        start = nl + 1;
        if (take(line)) break outer;
      }
      partial += chunk.slice(start);
      // lines before the page are only counted; a line longer than the budget is not gathered past it
      if (index < from) partial = "";
      else if (partial.length > budget + 1) partial = partial.slice(0, budget + 1);
    }
    if (!result && partial && index < to) take(partial);
  } finally {
    stream.destroy();
  }
  return result ?? { lines };
}
