import {
  closeSync,
  constants,
  fchmodSync,
  fsync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { promisify } from "node:util";
import path from "node:path";
import { sweepStaleTemps, tempNameFor } from "../safety/temp-files.js";
import { type DirRef, entryPath } from "../safety/workspace-walk.js";

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
const fsyncFd = promisify(fsync);

/**
 * Data up to this size is written with direct calls: a small write takes microseconds, a
 * thread-pool trip per step costs more than the write. Only the flush goes to the thread pool.
 */
const DIRECT_WRITE_MAX = 1024 * 1024;

/** How an atomic write treats the new file. */
export interface ReplaceOptions {
  /** Permission bits of a new file (the umask applies), default 0o600. */
  mode?: number | undefined;
  /** Set `mode` exactly, past the umask (restoring a file as it was). */
  exactMode?: boolean | undefined;
  /** Flush the file's bytes before the rename. */
  syncFile?: boolean | undefined;
  /** Flush the directory after the rename, so the rename itself survives a power cut. */
  syncDir?: boolean | undefined;
  /** Runs after the bytes are written and before the rename (a last containment check). */
  beforeRename?: (() => Promise<void>) | undefined;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The one atomic writer: `data` goes into a fresh temp file beside `name` in `dir`
 * (`TEMP_FILE_PATTERN`, created exclusively, never through a symlink), which is then renamed over
 * it. A reader sees the old file or the new one; a writer killed mid-way leaves a temp file the
 * next write into that directory sweeps once stale. `dir.via` is the path to reach the directory
 * by (a verified descriptor's path for workspace writes), `dir.real` its real path.
 */
export async function replaceInDir(
  dir: Pick<DirRef, "real" | "via">,
  name: string,
  data: string | Uint8Array,
  options: ReplaceOptions = {},
): Promise<void> {
  await sweepStaleTemps(dir);
  const tempAt = entryPath(dir, tempNameFor(name));
  const mode = options.mode ?? 0o600;
  if (data.length <= DIRECT_WRITE_MAX) return replaceDirect(dir, name, tempAt, data, mode, options);
  try {
    const handle = await open(tempAt, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    try {
      await handle.writeFile(data);
      if (options.exactMode) await handle.chmod(mode);
      if (options.syncFile) await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await rename(tempAt, entryPath(dir, name));
  } catch (error) {
    await unlink(tempAt).catch(() => {});
    throw error;
  }
  if (options.syncDir) await syncDir(dir.via);
}

/** replaceInDir for small data: the same steps as direct calls, the flush on the thread pool. */
async function replaceDirect(
  dir: Pick<DirRef, "via">,
  name: string,
  tempAt: string,
  data: string | Uint8Array,
  mode: number,
  options: ReplaceOptions,
): Promise<void> {
  try {
    const fd = openSync(tempAt, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    try {
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at);
      if (options.exactMode) fchmodSync(fd, mode);
      if (options.syncFile) await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
    await options.beforeRename?.();
    renameSync(tempAt, entryPath(dir, name));
  } catch (error) {
    try {
      unlinkSync(tempAt);
    } catch {
      // never made, or gone already
    }
    throw error;
  }
  if (options.syncDir) await syncDir(dir.via);
}

export interface WriteFileAtomicallyOptions {
  /** Permission bits of the file (default 0o600: state is private to its user). */
  mode?: number | undefined;
  /**
   * Flush the file and its directory to the disk before resolving, so the write survives a power
   * cut (default false: the rename alone makes the write all or nothing, not durable).
   */
  durable?: boolean | undefined;
}

/**
 * Replaces `file` (a path outside any workspace: state, logs, caches) with `data`, whole or not
 * at all, creating its directory when missing. Callers that read, change and write hold a lock
 * around it (`withWriteLock` in the process, `withFileLock` across processes).
 */
export async function writeFileAtomically(
  file: string,
  data: string | Uint8Array,
  options: WriteFileAtomicallyOptions = {},
): Promise<void> {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true });
  await replaceInDir({ real: dir, via: dir }, path.basename(target), data, {
    mode: options.mode,
    syncFile: options.durable,
    syncDir: options.durable,
  });
}
