import { constants, type Dirent, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import { sweepStaleTemps, tempNameFor } from "./temp-files.js";
import {
  errnoError,
  hardlinkError,
  notRegularFileError,
  symlinkNotFollowedError,
} from "./workspace-errors.js";
import { entryPath, type WalkResult, walk } from "./workspace-walk.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_DIRECTORY, O_NONBLOCK, O_NOFOLLOW } = constants;

export interface WorkspacePathOptions {
  /** The path as the model gave it, for error messages (default: the target). */
  input?: string;
  /**
   * A final symlink is followed when it leads inside the root (every hop checked) —
   * `"follow-in-root"`, the default — or not followed at all (`"nofollow"`).
   */
  final?: "follow-in-root" | "nofollow";
  /** Accept a regular file with more than one link (default false: refused). */
  allowHardlinks?: boolean;
}

export interface OpenInWorkspaceOptions extends WorkspacePathOptions {
  /**
   * `read`: an existing file (or directory: check `stat`); `write`: a file opened for writing in
   * place, created when missing (use writeFileAtomic to replace content); `dir`: a directory.
   */
  mode?: "read" | "write" | "dir";
  /** With mode `write`: append instead of writing from the start. */
  append?: boolean;
  /** With mode `write` or `dir`: create missing parent directories. */
  createParents?: boolean;
}

export interface WorkspaceHandle {
  handle: FileHandle;
  /** The verified real path of what was opened. */
  realPath: string;
  stat: Stats;
  /**
   * A path that names the opened directory itself, not by lookup (mode `dir`):
   * `/proc/self/fd/<fd>` on Linux, the real path elsewhere. Valid until `close()`.
   */
  path: string;
  close(): Promise<void>;
}

const finalOf = (o: WorkspacePathOptions) => (o.final === "nofollow" ? "nofollow" : "follow");

function refuseHardlink(w: WalkResult, input: string, st: Stats, action: "read" | "write", allow?: boolean) {
  if (!allow && st.isFile() && st.nlink > 1) throw hardlinkError(w.ws.root, input, st.nlink, action);
}

/** Opens a file or directory inside `root`; the check and the open are one walk. */
export async function openInWorkspace(
  root: string,
  target: string,
  options: OpenInWorkspaceOptions = {},
): Promise<WorkspaceHandle> {
  const input = options.input ?? target;
  const mode = options.mode ?? "read";
  const flags =
    mode === "dir"
      ? O_RDONLY | O_DIRECTORY
      : mode === "write"
        ? O_WRONLY | O_CREAT | (options.append ? O_APPEND : 0)
        : O_RDONLY | O_NONBLOCK;
  const w = await walk(root, target, {
    input,
    final: finalOf(options),
    open: flags,
    fileMode: 0o666,
    createDirs: options.createParents === true && mode !== "read",
  });
  try {
    if (!w.file || !w.stat) throw errnoError("ENOENT", "open", w.real);
    const file = w.file;
    try {
      const st = w.stat;
      refuseHardlink(w, input, st, mode === "write" ? "write" : "read", options.allowHardlinks);
      if (!st.isFile() && !st.isDirectory()) throw notRegularFileError(input);
      const procFd = w.dir.via.startsWith("/proc/self/fd/");
      return {
        handle: file,
        realPath: w.real,
        stat: st,
        path: procFd ? `/proc/self/fd/${file.fd}` : w.real,
        close: () => file.close(),
      };
    } catch (error) {
      await file.close().catch(() => {});
      throw error;
    }
  } finally {
    await w.close();
  }
}

export interface WorkspaceStat {
  stat: Stats;
  realPath: string;
}

/** lstat (or stat through in-root symlinks) of a path inside `root`; null when it does not exist. */
export async function statInWorkspace(
  root: string,
  target: string,
  options: WorkspacePathOptions = {},
): Promise<WorkspaceStat | null> {
  let w: WalkResult;
  try {
    w = await walk(root, target, { input: options.input ?? target, final: finalOf(options) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
  await w.close();
  return w.stat ? { stat: w.stat, realPath: w.real } : null;
}

/**
 * The verified real path `target` stands for inside `root` (in-root symlinks followed, missing
 * components appended as spelled): the identity to key a write lock by.
 */
export async function resolveInWorkspace(
  root: string,
  target: string,
  options: WorkspacePathOptions = {},
): Promise<string> {
  const w = await walk(root, target, { input: options.input ?? target, final: finalOf(options) });
  await w.close();
  return w.real;
}

export interface WriteAtomicOptions extends WorkspacePathOptions {
  /** Create missing parent directories (default true). */
  createParents?: boolean;
  /** Mode of a new file (default 0o666 less the umask); an existing file keeps its mode. */
  mode?: number;
}

/**
 * Replaces a file inside `root` atomically: the temp file is created in the verified directory
 * and renamed there, relative to its descriptor, never by walking the path again. A reader sees
 * the old or the new content. Stale temp files of killed writes in that directory are swept.
 */
export async function writeFileAtomic(
  root: string,
  target: string,
  data: string | Uint8Array,
  options: WriteAtomicOptions = {},
): Promise<{ realPath: string }> {
  const input = options.input ?? target;
  const w = await walk(root, target, {
    input,
    final: "follow",
    createDirs: options.createParents !== false,
  });
  try {
    if (w.rest.length > 0) throw errnoError("ENOENT", "open", w.real);
    if (w.name === "" || w.stat?.isDirectory()) throw errnoError("EISDIR", "open", w.real);
    if (w.stat?.isSymbolicLink()) throw symlinkNotFollowedError(w.ws.root, input);
    if (w.stat) {
      refuseHardlink(w, input, w.stat, "write", options.allowHardlinks);
      if (!w.stat.isFile()) throw notRegularFileError(input);
    }
    await sweepStaleTemps(w.dir);
    const temp = tempNameFor(w.name);
    const tempAt = entryPath(w.dir, temp);
    const mode = w.stat ? w.stat.mode & 0o7777 : (options.mode ?? 0o666);
    try {
      const handle = await fs.open(tempAt, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await w.verify();
      await fs.rename(tempAt, entryPath(w.dir, w.name));
    } catch (error) {
      await fs.unlink(tempAt).catch(() => {});
      throw error;
    }
    return { realPath: w.real };
  } finally {
    await w.close();
  }
}

/** Creates a directory and its missing parents inside `root` (never through a symlink that leads out). */
export async function mkdirInWorkspace(
  root: string,
  target: string,
  options: Pick<WorkspacePathOptions, "input"> = {},
): Promise<{ realPath: string }> {
  const input = options.input ?? target;
  const w = await walk(root, target, { input, final: "follow", createDirs: true });
  try {
    if (w.rest.length > 0) throw errnoError("ENOENT", "mkdir", w.real);
    if (!w.stat) {
      await fs.mkdir(entryPath(w.dir, w.name)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "EEXIST") throw e;
      });
    } else if (!w.stat.isDirectory()) {
      throw errnoError("ENOTDIR", "mkdir", w.real);
    }
    return { realPath: w.real };
  } finally {
    await w.close();
  }
}

/** Removes one entry inside `root`: a final symlink or hardlink is removed itself, never followed. */
export async function removeInWorkspace(
  root: string,
  target: string,
  options: Pick<WorkspacePathOptions, "input"> & { directory?: boolean } = {},
): Promise<void> {
  const input = options.input ?? target;
  const w = await walk(root, target, { input, final: "nofollow" });
  try {
    if (!w.stat) throw errnoError("ENOENT", "unlink", w.real);
    if (w.name === "" || w.stat.isDirectory()) {
      if (!options.directory || w.name === "") throw errnoError("EISDIR", "unlink", w.real);
      await w.verify();
      await fs.rmdir(entryPath(w.dir, w.name));
      return;
    }
    await w.verify();
    await fs.unlink(entryPath(w.dir, w.name));
  } finally {
    await w.close();
  }
}

/**
 * Renames inside `root`: the source entry is moved as it is (a symlink stays a symlink), the
 * destination is resolved like a write target (in-root symlinks followed, hardlinks refused).
 */
export async function renameInWorkspace(
  root: string,
  from: string,
  to: string,
  options: { allowHardlinks?: boolean; createParents?: boolean } = {},
): Promise<void> {
  const source = await walk(root, from, { input: from, final: "nofollow" });
  try {
    if (!source.stat || source.name === "") throw errnoError("ENOENT", "rename", source.real);
    const dest = await walk(root, to, { input: to, final: "follow", createDirs: options.createParents });
    try {
      if (dest.rest.length > 0) throw errnoError("ENOENT", "rename", dest.real);
      if (dest.name === "") throw errnoError("EISDIR", "rename", dest.real);
      if (dest.stat) refuseHardlink(dest, to, dest.stat, "write", options.allowHardlinks);
      await source.verify();
      await dest.verify();
      await fs.rename(entryPath(source.dir, source.name), entryPath(dest.dir, dest.name));
    } finally {
      await dest.close();
    }
  } finally {
    await source.close();
  }
}

export interface WorkspaceDirEntry {
  name: string;
  type: "file" | "directory" | "symlink" | "other";
  /** A symlink's target as written in the link (read, never followed); absent if it vanished. */
  target?: string;
}

const kindOf = (d: Dirent): WorkspaceDirEntry["type"] =>
  d.isSymbolicLink() ? "symlink" : d.isFile() ? "file" : d.isDirectory() ? "directory" : "other";

/**
 * Lists a directory inside `root`, read from its verified descriptor. Entries are not followed;
 * a symlink's target text is read relative to that descriptor, so a listing can show where a
 * link leads (outside the root, or nowhere) without ever opening it.
 */
export async function listDirInWorkspace(
  root: string,
  target: string,
  options: Pick<WorkspacePathOptions, "input" | "final"> = {},
): Promise<WorkspaceDirEntry[]> {
  const dir = await openInWorkspace(root, target, { ...options, mode: "dir" });
  try {
    const entries = await fs.readdir(dir.path, { withFileTypes: true });
    // awaited here, so the directory stays open until every link has been read
    return await Promise.all(
      entries.map(async (entry): Promise<WorkspaceDirEntry> => {
        const type = kindOf(entry);
        if (type !== "symlink") return { name: entry.name, type };
        const target = await fs.readlink(`${dir.path}/${entry.name}`).catch(() => undefined);
        return target === undefined ? { name: entry.name, type } : { name: entry.name, type, target };
      }),
    );
  } finally {
    await dir.close();
  }
}
