import { randomUUID } from "node:crypto";
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { readFile, rename, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
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

/** What a lock file says about its holder: `<pid>\n<host>\n`. */
function holderGone(text: string): boolean {
  const [pidText, host] = text.split("\n");
  const pid = /^\d+$/.test(pidText ?? "") ? Number(pidText) : 0;
  return pid > 0 && host === HOST && !processAlive(pid);
}

/**
 * Moves an abandoned lock aside (a rename: of two breakers exactly one gets it). When what was
 * moved is not the lock judged abandoned — another waiter broke that one and a live holder took
 * a new one — the live holder would lose its lock, so it is given back by a no-clobber rename.
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
      const fd = openSync(lock, "wx");
      writeSync(fd, moved);
      closeSync(fd);
    } catch {
      // taken again already: that holder's lock stands
    }
  }
  await rm(aside, { force: true });
}

export interface FileLockOptions {
  /** Give up waiting after this long (default 20 s), with an error naming the file and holder. */
  timeoutMs?: number;
  /** A lock this old is broken even if its holder looks alive (default 30 s). */
  staleMs?: number;
}

/**
 * Takes the cross-process lock of `file`: `<file>.lock`, created exclusively (O_EXCL) and holding
 * the holder's pid and host. A lock whose holder died (same host) is broken at once; any lock
 * older than `staleMs` is broken too. Waiters retry with a short jittered backoff. Returns the
 * release function. Use it for short read-modify-write sections; hold `withWriteLock` (in-process)
 * around it so one process's own writers queue without polling.
 */
export async function acquireFileLock(file: string, options: FileLockOptions = {}): Promise<() => void> {
  const lock = `${file}.lock`;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const staleMs = options.staleMs ?? FILE_LOCK_STALE_MS;
  const deadline = Date.now() + timeoutMs;
  const mine = `${process.pid}\n${HOST}\n`;
  for (let attempt = 0; ; attempt++) {
    let fd: number | undefined;
    try {
      fd = openSync(lock, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        try {
          unlinkSync(lock);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      };
    }
    const seen = await readFile(lock, "utf8").catch(() => "");
    const age = await stat(lock).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    // an empty lock is one being written this instant: judged by age alone
    if ((seen && holderGone(seen)) || age > staleMs) {
      await breakAbandoned(lock, seen);
      continue;
    }
    if (Date.now() > deadline) {
      const pid = seen.split("\n")[0] || "?";
      throw new Error(`timed out after ${timeoutMs} ms waiting for the lock on ${file} (held by pid ${pid})`);
    }
    await delay(Math.min(40, 1 + attempt * 2) + Math.random() * 5);
  }
}

/** Runs `run` while holding the cross-process lock of `file` (see `acquireFileLock`). */
export async function withFileLock<T>(
  file: string,
  run: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const release = await acquireFileLock(file, options);
  try {
    return await run();
  } finally {
    release();
  }
}
