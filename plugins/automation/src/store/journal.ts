import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import type { CronJob } from "../cron/types.js";
import type { JobLease } from "./jobs-file.js";

/**
 * One change to one job, as appended to the journal: the job's whole new value and its claim, or,
 * without `job`, its removal. Whole values make replay order the only thing that matters.
 */
export interface JournalRecord {
  /** The jobs.json generation the record applies on top of (a record of another one is void). */
  g: number;
  id: string;
  job?: CronJob;
  lease?: JobLease;
}

const NAME = /^jobs\.journal\.(\d+)\.jsonl$/;

/**
 * The journal of one jobs.json generation: `jobs.journal.<generation>.jsonl` beside it. Naming it
 * by generation means a reader that has seen jobs.json at generation G opens exactly the changes
 * made on top of G, however often the file is compacted and recreated.
 */
export const journalFile = (dir: string, generation: number) =>
  path.join(dir, `jobs.journal.${generation}.jsonl`);

/** What a read of the journal found: the complete records past `from`, and where the next read starts. */
export interface JournalRead {
  records: JournalRecord[];
  /** The offset just past the last complete line (a line still being written is left for later). */
  end: number;
  /** Whether the file exists. */
  exists: boolean;
  /** The file is shorter than `from`: not the journal the caller read before (reload from scratch). */
  shrank?: boolean;
}

/**
 * Reads the complete lines of a journal from byte `from` on. A line with no newline yet is a
 * write in progress (or a writer killed mid-write: the next writer cuts it off); it is not
 * consumed. A complete line that is not a record is corruption, refused with the file and offset.
 */
export function readJournal(file: string, from: number): JournalRead {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { records: [], end: 0, exists: false };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < from) return { records: [], end: 0, exists: true, shrank: true };
    const data = Buffer.alloc(size - from);
    let got = 0;
    while (got < data.length) {
      const n = readSync(fd, data, got, data.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    const last = data.subarray(0, got).lastIndexOf(0x0a);
    if (last < 0) return { records: [], end: from, exists: true };
    const records: JournalRecord[] = [];
    let start = 0;
    const text = data.subarray(0, last + 1);
    for (let nl = text.indexOf(0x0a); nl >= 0; nl = text.indexOf(0x0a, start)) {
      const line = text.subarray(start, nl).toString("utf8");
      const at = from + start;
      start = nl + 1;
      if (!line.trim()) continue;
      records.push(parseRecord(file, at, line));
    }
    return { records, end: from + last + 1, exists: true };
  } finally {
    closeSync(fd);
  }
}

function parseRecord(file: string, at: number, line: string): JournalRecord {
  let record: JournalRecord;
  try {
    record = JSON.parse(line);
  } catch (error) {
    throw new Error(`cron journal ${file} has a corrupt line at byte ${at}: ${(error as Error).message}`);
  }
  if (typeof record?.g !== "number" || typeof record.id !== "string")
    throw new Error(`cron journal ${file} has a line at byte ${at} that is not a job change`);
  return record;
}

/**
 * Appends records under the caller's cross-process lock. `end` is where the caller's last read
 * stopped: anything past it is the torn tail of a writer that died mid-line, cut off first so
 * the new line is not glued to it. Returns the new end. `sync`: flushed to disk before answering.
 */
export function appendJournal(file: string, end: number, text: string, sync: boolean): number {
  const fd = openSync(file, "a+", 0o600);
  try {
    if (fstatSync(fd).size > end) ftruncateSync(fd, end);
    const data = Buffer.from(text, "utf8");
    let written = 0;
    while (written < data.length) written += writeSync(fd, data, written, data.length - written);
    if (sync) fsyncSync(fd);
    return end + data.length;
  } finally {
    closeSync(fd);
  }
}

/** Removes the journals of every generation but `keep` (a compaction left by a crash leaves its old one). */
export function removeOtherJournals(dir: string, keep: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = NAME.exec(name);
    if (match && Number(match[1]) !== keep) rmSync(path.join(dir, name), { force: true });
  }
}
