import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { withFileLock, withWriteLock } from "@clawtools/core/safety";
import { writeFileAtomically } from "@clawtools/core/state";
import type { CronRunLogEntry, Page } from "../cron/types.js";

/**
 * Run logs are pruned once they pass 2 MB, to their newest 2,000 lines (OpenClaw's `run-log.ts`),
 * and to no more than 1 MB of them, so long lines do not cause a rewrite per append.
 */
export const RUN_LOG_MAX_BYTES = 2_000_000;
export const RUN_LOG_KEEP_LINES = 2_000;

/**
 * `<dir>/<jobId>.jsonl`, one line per run. Appends and prunes hold the file's lock in this
 * process and across processes, so a prune by one process never drops a line another appends.
 */
export class RunLogs {
  /** The directory was made (or found) once; it is made again only if an append finds it gone. */
  private dirReady = false;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
    private readonly keepLines: number,
  ) {}

  file(jobId: string): string {
    return path.join(this.dir, `${jobId}.jsonl`);
  }

  private locked<T>(file: string, run: () => Promise<T>): Promise<T> {
    return withWriteLock(file, () => withFileLock(file, run));
  }

  async append(entry: CronRunLogEntry): Promise<void> {
    const file = this.file(entry.jobId);
    const line = `${JSON.stringify(entry)}\n`;
    if (!this.dirReady) {
      // once, synchronously: a burst of first appends does not queue a mkdir each
      mkdirSync(this.dir, { recursive: true });
      this.dirReady = true;
    }
    await this.locked(file, async () => {
      let size: number;
      try {
        size = appendLine(file, line);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        // the runs directory was removed since: made again
        await mkdir(this.dir, { recursive: true });
        size = appendLine(file, line);
      }
      if (size <= this.maxBytes) return;
      // newest lines first: at most keepLines, and at most half the byte bound
      const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
      const kept: string[] = [];
      let bytes = 0;
      for (let i = lines.length - 1; i >= 0 && kept.length < this.keepLines; i--) {
        bytes += Buffer.byteLength(lines[i] as string) + 1;
        if (bytes > this.maxBytes / 2 && kept.length > 0) break;
        kept.push(lines[i] as string);
      }
      await writeFileAtomically(file, `${kept.reverse().join("\n")}\n`, { durable: true });
    });
  }

  async remove(jobId: string): Promise<void> {
    const file = this.file(jobId);
    try {
      await this.locked(file, () => rm(file, { force: true }));
    } catch (error) {
      // no runs directory: no log to remove
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  async read(jobId: string, page: { offset?: number; limit?: number }): Promise<Page<CronRunLogEntry>> {
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.max(1, Math.min(200, Math.floor(page.limit ?? 50)));
    let text = "";
    try {
      text = await readFile(this.file(jobId), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const all: CronRunLogEntry[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        all.push(JSON.parse(line) as CronRunLogEntry);
      } catch {
        // a torn last line (a crash mid-append) is skipped
      }
    }
    all.reverse();
    const entries = all.slice(offset, offset + limit);
    const hasMore = offset + entries.length < all.length;
    return {
      entries,
      total: all.length,
      offset,
      limit,
      hasMore,
      nextOffset: hasMore ? offset + entries.length : null,
    };
  }
}

/**
 * Appends one line and answers the file's new size. Synchronous: a few microseconds for a small
 * line, where a promise-based append (open, write, close and a stat, each a thread-pool round
 * trip) cost a burst of runs more than the run itself.
 */
function appendLine(file: string, line: string): number {
  const fd = openSync(file, "a", 0o600);
  try {
    const data = Buffer.from(line, "utf8");
    let written = 0;
    while (written < data.length) written += writeSync(fd, data, written, data.length - written);
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}
