import {
  closeSync,
  constants,
  type Dirent,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  type Stats,
} from "node:fs";
import { onLocalFilesystemOf } from "./local-filesystem.js";
import { type Located, locateDirect } from "./workspace-walk.js";

const { O_RDONLY, O_NONBLOCK, O_DIRECTORY } = constants;

/**
 * Small entries on a local disk are read without the thread pool. A warm read of a 10 KB file
 * through fs/promises is four trips (open, fstat, read, close), each a worker wake-up and a
 * loop wake-up that cost more CPU than the system call; done in place they are microseconds.
 * Only where waiting cannot happen: an entry the kernel verified (`locateDirect`), a regular
 * file or a directory (never a FIFO or device), small (`DIRECT_READ_MAX`, `SMALL_DIR_BYTES`), on a filesystem whose
 * reads are local (a network or FUSE mount can stall, so it keeps the asynchronous path).
 * Anything else gives null and the caller takes that path, which also words every refusal.
 */
/** Files up to this size are read in place (1 MB from the page cache takes well under a millisecond). */
export const DIRECT_READ_MAX = 1024 * 1024;
/** Directories whose own size is at most this (about a thousand names on ext4) are listed in place. */
export const SMALL_DIR_BYTES = 64 * 1024;

async function locateSmall(
  root: string,
  target: string,
  fits: (stat: Stats) => boolean,
): Promise<Located | null> {
  const found = await locateDirect(root, target);
  if (!found) return null;
  if (fits(found.stat) && onLocalFilesystemOf(`/proc/self/fd/${found.located}`, found.stat.dev)) return found;
  closeSync(found.located);
  return null;
}

export interface SmallFile {
  realPath: string;
  stat: Stats;
  /** The whole file, read up to the size its stat gave (less if it shrank since). */
  data: Buffer;
}

/**
 * A regular file inside `root` of 1 to `maxBytes` bytes (at most and by default `DIRECT_READ_MAX`), read whole in
 * place; null when it is anything else (the caller's general path decides and words why).
 * A file with more than one link is left to that path too (it refuses or allows it).
 */
export async function readSmallInWorkspace(
  root: string,
  target: string,
  options: { maxBytes?: number; allowHardlinks?: boolean } = {},
): Promise<SmallFile | null> {
  const max = Math.min(options.maxBytes ?? DIRECT_READ_MAX, DIRECT_READ_MAX);
  const found = await locateSmall(
    root,
    target,
    (st) =>
      st.isFile() && st.size > 0 && st.size <= max && (options.allowHardlinks === true || st.nlink === 1),
  );
  if (!found) return null;
  try {
    const fd = openSync(`/proc/self/fd/${found.located}`, O_RDONLY | O_NONBLOCK);
    try {
      const data = Buffer.allocUnsafe(found.stat.size);
      let got = 0;
      while (got < data.length) {
        const n = readSync(fd, data, got, data.length - got, got);
        if (n === 0) break;
        got += n;
      }
      return { realPath: found.real, stat: found.stat, data: data.subarray(0, got) };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  } finally {
    closeSync(found.located);
  }
}

export interface WorkspaceDirEntry {
  name: string;
  type: "file" | "directory" | "symlink" | "other";
  /** A symlink's target as written in the link (read, never followed); absent if it vanished. */
  target?: string;
}

export const kindOf = (d: Dirent): WorkspaceDirEntry["type"] =>
  d.isSymbolicLink() ? "symlink" : d.isFile() ? "file" : d.isDirectory() ? "directory" : "other";

/**
 * The entries of a directory inside `root` whose own size is at most `SMALL_DIR_BYTES`, listed in place as `listDirInWorkspace` lists them: links not
 * followed, their targets read relative to the opened directory. Null for anything else.
 */
export async function listSmallDirInWorkspace(
  root: string,
  target: string,
): Promise<WorkspaceDirEntry[] | null> {
  const found = await locateSmall(root, target, (st) => st.isDirectory() && st.size <= SMALL_DIR_BYTES);
  if (!found) return null;
  try {
    const fd = openSync(`/proc/self/fd/${found.located}`, O_RDONLY | O_DIRECTORY);
    try {
      const at = `/proc/self/fd/${fd}`;
      return readdirSync(at, { withFileTypes: true }).map((entry): WorkspaceDirEntry => {
        const type = kindOf(entry);
        if (type !== "symlink") return { name: entry.name, type };
        let linked: string | undefined;
        try {
          linked = readlinkSync(`${at}/${entry.name}`);
        } catch {
          linked = undefined; // removed since the listing
        }
        return linked === undefined ? { name: entry.name, type } : { name: entry.name, type, target: linked };
      });
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  } finally {
    closeSync(found.located);
  }
}
