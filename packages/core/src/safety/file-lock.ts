import { randomUUID } from "node:crypto";
import { closeSync, ftruncateSync, openSync, renameSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { readFile, rename, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { backoffPause } from "../http/backoff.js";
import { delay } from "../time/delay.js";

/** A lock older than this is taken to be abandoned whatever its holder (another host, a reused pid). */
export const FILE_LOCK_STALE_MS = 30_000;

const HOST = hostname();

/** Whether a process of this host is alive (EPERM: it exists, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The holder's pid a lock file names in its first line (`<pid>\n<host>\n`), or 0. */
function holderPid(text: string): number {
  const [pidText] = text.split("\n");
  return /^\d+$/.test(pidText ?? "") ? Number(pidText) : 0;
}

function holderGone(text: string): boolean {
  const pid = holderPid(text);
  return pid > 0 && text.split("\n")[1] === HOST && !processAlive(pid);
}

/**
 * Moves an abandoned lock aside (a rename: of two breakers exactly one gets it). When what was
 * moved is not the lock judged abandoned — another waiter broke that one and a live holder took
 * a new one — the live holder would lose its lock, so it is given back by a no-clobber create.
 */
async function breakAbandoned(lock: string, seen: string): Promise<void> {
  const aside = `${lock}.${randomUUID().slice(0, 8)}.broken`;
  try {
    await rename(lock, aside);
  } catch {
    return;
  }
  const moved = await readFile(aside, "utf8").catch(() => seen);
  if (moved !== seen) {
    // put back only if nobody took the lock meanwhile
    try {
      const fd = openSync(lock, "wx", 0o600);
      writeAll(fd, Buffer.from(moved));
      closeSync(fd);
    } catch {
      // taken again already: that holder's lock stands
    }
  }
  await rm(aside, { force: true });
}

/** Writes all of `bytes` at `position` (a write may be short). */
function writeAll(fd: number, bytes: Uint8Array, position = 0): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

export interface FileLockOptions {
  /** Give up waiting after this long (default 20 s), with an error naming the file and holder. */
  timeoutMs?: number;
  /** A lock this old is broken even if its holder looks alive (default 30 s). */
  staleMs?: number;
}

/** A lock held on a file: release it, or replace the file through it. */
export interface HeldFileLock {
  /**
   * Replaces the file with `data` (text or bytes) and releases the lock in one step, as git does
   * with its `index.lock`: the data is written into the lock file, which is then renamed over the
   * file. A reader sees the old file or the new one, never a part; the next writer can take the
   * lock the moment the rename lands. The new file has the lock's mode, 0o600.
   */
  replace(data: string | Uint8Array): void;
  /** Releases the lock, leaving the file as it is. Releasing twice is a bug, and throws. */
  release(): void;
}

function takeFree(lock: string): number | undefined {
  try {
    return openSync(lock, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return undefined;
  }
}

/**
 * Takes the cross-process lock of `file`: `<file>.lock`, created exclusively (O_EXCL) and holding
 * the holder's pid and host. A lock whose holder died (same host) is broken at once; any lock
 * older than `staleMs` is broken too (one caught while its holder writes a replacement into it
 * names no pid, and is judged by age alone). Waiters retry with a short jittered backoff, so a
 * burst of writers queues instead of failing. Taking a free lock is synchronous (a create and a
 * small write, cheaper than their trips through the thread pool); waiting is not. Use it for
 * short read-modify-write sections; hold `withWriteLock` (in-process) around it so one process's
 * own writers queue without polling.
 */
export async function acquireFileLock(file: string, options: FileLockOptions = {}): Promise<HeldFileLock> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const staleMs = options.staleMs ?? FILE_LOCK_STALE_MS;
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const fd = takeFree(lock);
    if (fd !== undefined) return holding(file, lock, fd);
    const seen = await readFile(lock, "utf8").catch(() => "");
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (holderGone(seen) || age > staleMs) {
      await breakAbandoned(lock, seen);
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for the lock on ${file} (held by pid ${holderPid(seen) || "?"})`,
      );
    await delay(backoffPause(attempt, { baseMs: 2, maxMs: 40 }));
  }
}

function holding(file: string, lock: string, fd: number): HeldFileLock {
  const owner = Buffer.from(`${process.pid}\n${HOST}\n`);
  const abandon = (error: unknown): never => {
    closeSync(fd);
    rmSync(lock, { force: true });
    throw error;
  };
  try {
    writeAll(fd, owner);
  } catch (error) {
    abandon(error);
  }
  let held = true;
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
        abandon(error);
      }
      closeSync(fd);
      try {
        // synchronous: a trip through the thread pool costs more than the rename
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

/** Runs `run` while holding the cross-process lock of `file` (see `acquireFileLock`). */
export async function withFileLock<T>(
  file: string,
  run: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lock = await acquireFileLock(file, options);
  try {
    return await run();
  } finally {
    lock.release();
  }
}
