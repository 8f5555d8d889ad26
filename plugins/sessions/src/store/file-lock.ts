import { randomUUID } from "node:crypto";
import { closeSync, ftruncateSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { link, readFile, rename, rm, stat } from "node:fs/promises";
import { delay } from "@clawtools/core";

const STALE_MS = 30_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes a stale lock away by renaming it (atomic: of two breakers, one wins). If what was taken
 * is not the lock judged stale (another waiter already broke it and a live writer took a new
 * one), it is put back.
 */
async function breakStale(lock: string, seen: string): Promise<void> {
  const aside = `${lock}.${randomUUID().slice(0, 8)}.stale`;
  try {
    await rename(lock, aside);
  } catch {
    return; // gone already
  }
  const taken = await readFile(aside, "utf8").catch(() => seen);
  if (taken !== seen) await link(aside, lock).catch(() => {});
  await rm(aside, { force: true });
}

/** Writes all of `bytes` at `position` (a write may be short). */
function writeAll(fd: number, bytes: Uint8Array, position = 0): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** A lock held on a file: release it, or replace the file through it. */
export interface HeldFileLock {
  /**
   * Replaces the file with `data` (text or its UTF-8 bytes) and releases the lock in one step, as git does with its
   * `index.lock`: the text is written into the lock file, which is then renamed over the file. A
   * reader sees the old file or the new one, never a part; the next writer can take the lock the
   * moment the rename lands.
   */
  replace(data: string | Uint8Array): void;
  /** Releases the lock, leaving the file as it is. */
  release(): void;
}

/**
 * Takes the cross-process lock beside a file: `<file>.lock` created with O_EXCL, holding the
 * owner's pid and the time. A lock whose owner is gone, or older than 30 s, is broken. Waiters
 * retry with a short jittered backoff, so a burst of writers queues instead of failing. Taking a
 * free lock is synchronous (a create and a small write, cheaper than their trips through the
 * thread pool); waiting is not.
 */
export async function acquireFileLock(file: string, timeoutMs = 20_000): Promise<HeldFileLock> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + timeoutMs;
  let fd: number;
  for (let attempt = 0; ; attempt++) {
    try {
      fd = openSync(lock, "wx");
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const seen = await readFile(lock, "utf8").catch(() => "");
      // while its owner writes the new file into it, a lock holds no pid: it is judged by age alone
      const [pidText] = seen.split("\n");
      const age = await stat(lock)
        .then((s) => Date.now() - s.mtimeMs)
        .catch(() => 0);
      const pid = /^\d+$/.test(pidText ?? "") ? Number(pidText) : 0;
      if ((pid && !alive(pid)) || age > STALE_MS) {
        await breakStale(lock, seen);
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for the lock on ${file} (held by pid ${pid || "?"})`);
      await delay(Math.min(50, 2 + attempt * 2) + Math.random() * 5);
    }
  }
  let held = true;
  const owner = Buffer.from(`${process.pid}\n${Date.now()}\n`);
  try {
    writeAll(fd, owner);
  } catch (error) {
    closeSync(fd);
    unlinkSync(lock);
    throw error;
  }
  const done = () => {
    if (!held) throw new Error(`The lock on ${file} was already released`);
    held = false;
  };
  return {
    replace(data) {
      done();
      try {
        // written over the owner line: a truncate to 0 first is a call more, and on ext4 it moves
        // the flush that replacing the file starts (auto_da_alloc) into the close
        const bytes = typeof data === "string" ? Buffer.from(data) : data;
        writeAll(fd, bytes);
        if (bytes.length < owner.length) ftruncateSync(fd, bytes.length);
      } catch (error) {
        closeSync(fd);
        unlinkSync(lock);
        throw error;
      }
      closeSync(fd);
      try {
        // synchronous: see JsonFile (a trip through the thread pool costs more than the rename)
        renameSync(lock, file);
      } catch (error) {
        rmSync(lock, { force: true });
        throw error;
      }
    },
    release() {
      done();
      closeSync(fd);
      try {
        unlinkSync(lock);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    },
  };
}

/** Runs `run` while holding the file's cross-process lock (see `acquireFileLock`). */
export async function withFileLock<T>(file: string, run: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const lock = await acquireFileLock(file, timeoutMs);
  try {
    return await run();
  } finally {
    lock.release();
  }
}
