import { randomUUID } from "node:crypto";
import { link, readFile, rename, rm, stat, writeFile } from "node:fs/promises";

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

/**
 * A cross-process lock beside a file: `<file>.lock` created with O_EXCL, holding the owner's
 * pid. A lock whose owner is gone, or older than 30 s, is broken. Waiters retry with a short
 * jittered backoff, so a burst of writers queues instead of failing.
 */
export async function withFileLock<T>(file: string, run: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(lock, `${process.pid}\n${Date.now()}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const seen = await readFile(lock, "utf8").catch(() => "");
      const [pidText] = seen.split("\n");
      const age = await stat(lock)
        .then((s) => Date.now() - s.mtimeMs)
        .catch(() => 0);
      const pid = Number(pidText);
      if ((pid && !alive(pid)) || age > STALE_MS) {
        await breakStale(lock, seen);
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for the lock on ${file} (held by pid ${pidText || "?"})`);
      await new Promise((r) => setTimeout(r, Math.min(50, 2 + attempt * 2) + Math.random() * 5));
    }
  }
  try {
    return await run();
  } finally {
    await rm(lock, { force: true });
  }
}
