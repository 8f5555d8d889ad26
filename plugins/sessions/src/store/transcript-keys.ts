import { closeSync, openSync, readSync, statSync } from "node:fs";

interface Scan {
  /** The file's identity: a transcript deleted and made again is scanned from the start. */
  ino: bigint;
  /** Bytes scanned so far (up to the last whole line). */
  offset: number;
  keys: Set<string>;
}

const CHUNK = 1 << 16;

/**
 * The idempotency keys already in each transcript, as the file stands now. Another process may
 * have appended since this one last looked, so each look reads the bytes added since the last one
 * (only whole lines; a torn last line is read again next time). Call it under the transcript's
 * cross-process lock, so nothing is appended between the look and the append that follows it.
 */
export class TranscriptKeys {
  private readonly scans = new Map<string, Scan>();

  current(file: string): Set<string> {
    const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!stat) {
      this.scans.delete(file);
      return new Set();
    }
    let scan = this.scans.get(file);
    const size = Number(stat.size);
    if (!scan || scan.ino !== stat.ino || size < scan.offset)
      scan = { ino: stat.ino, offset: 0, keys: new Set() };
    this.scans.set(file, scan);
    if (size === scan.offset) return scan.keys;
    const fd = openSync(file, "r");
    try {
      let carry = "";
      let position = scan.offset;
      const buffer = Buffer.alloc(CHUNK);
      while (position < size) {
        const read = readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
        if (read === 0) break;
        position += read;
        const text = carry + buffer.toString("utf8", 0, read);
        const end = text.lastIndexOf("\n");
        carry = end === -1 ? text : text.slice(end + 1);
        if (end !== -1) this.collect(scan, text.slice(0, end));
      }
      scan.offset = position - Buffer.byteLength(carry);
    } finally {
      closeSync(fd);
    }
    return scan.keys;
  }

  private collect(scan: Scan, lines: string): void {
    for (const line of lines.split("\n")) {
      if (!line.includes('"idempotencyKey"')) continue;
      try {
        const key = (JSON.parse(line) as { idempotencyKey?: unknown }).idempotencyKey;
        if (typeof key === "string") scan.keys.add(key);
      } catch {
        // a torn line from a crash
      }
    }
  }
}
