/**
 * The journal's entries file: one JSON line per changing call, appended through a descriptor
 * kept open.
 *
 * Durability: the workspace file's own write is flushed (temp file, fsync, rename) before a tool
 * answers; the journal's copies and its entry line are written after it and never flushed on their
 * own (a flush costs more than the rest of a small write). What a power cut can do to them, and why
 * undo still never restores wrong bytes:
 * - it loses the last entry lines: those calls cannot be undone; an undo to an older entry finds
 *   their files not as the journal left them and refuses, naming the file, changing nothing;
 * - it cuts the last line short: a line that does not parse is skipped, the rest still reads;
 * - it leaves a copy short or empty: a copy is named by the hash of its bytes, the next put of
 *   that content writes it again when its size differs, and undo reads every copy it restores and
 *   checks its hash first, refusing the whole undo (nothing changed) when one is missing or damaged.
 * Entry lines are appended after the copies they name, so a line that survives names copies
 * that were written before it (flushed or not: the hash check above covers them).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomically } from "../state/atomic-write.js";
import type { JournalEntry } from "./entry.js";

export class EntriesLog {
  readonly file: string;
  /** The entries file, open for appends while it is the file at `file` (see append). */
  private open: { fd: number; dev: number; ino: number } | undefined;

  constructor(private readonly dir: string) {
    this.file = path.join(dir, "entries.jsonl");
  }

  async all(): Promise<JournalEntry[]> {
    if (!existsSync(this.file)) return [];
    const text = await readFile(this.file, "utf8");
    const entries: JournalEntry[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        // a line a power cut left short: that call is not undoable, the others are
      }
    }
    return entries;
  }

  /**
   * Appends `line` (O_APPEND: each line lands whole at the end, whichever process writes),
   * reopening the file when it was replaced or removed; synchronous, as a small append costs less
   * than a thread-pool trip. Returns the file's size after it.
   */
  append(line: string): number {
    const data = Buffer.from(line);
    for (let attempt = 0; ; attempt++) {
      if (!this.open) {
        let fd: number;
        try {
          fd = openSync(this.file, "a+", 0o600);
        } catch (error) {
          // the journal's directory is made by the first record (or again, if it was removed)
          if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 0) throw error;
          mkdirSync(this.dir, { recursive: true });
          continue;
        }
        const st = fstatSync(fd);
        this.open = { fd, dev: st.dev, ino: st.ino };
        // a last line a crash cut short is ended, so the next line is not glued onto it
        const last = Buffer.alloc(1);
        if (st.size > 0 && readSync(fd, last, 0, 1, st.size - 1) === 1 && last[0] !== 0x0a)
          writeSync(fd, "\n");
      }
      const named = statSync(this.file, { throwIfNoEntry: false });
      if (named?.ino !== this.open.ino || named.dev !== this.open.dev) {
        this.close();
        if (attempt > 2) throw new Error(`${this.file} keeps being replaced`);
        continue;
      }
      let at = 0;
      while (at < data.length) at += writeSync(this.open.fd, data, at);
      return fstatSync(this.open.fd).size;
    }
  }

  /** Replaces the whole file (a new file: every process's open descriptor sees it and reopens). */
  async replace(text: string): Promise<void> {
    await writeFileAtomically(this.file, text);
    this.close();
  }

  close(): void {
    if (this.open) closeSync(this.open.fd);
    this.open = undefined;
  }
}
