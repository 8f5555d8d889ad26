import { constants, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type {
  OpenInWorkspaceOptions,
  WorkspaceHandle,
  WorkspacePathOptions,
} from "./workspace-fs-options.js";
import { replaceInDir } from "../state/atomic-write.js";
import {
  errnoError,
  hardlinkError,
  notRegularFileError,
  symlinkNotFollowedError,
} from "./workspace-errors.js";
import { directParent, resolveDirect } from "./workspace-direct.js";
import { openDirect, type WalkResult, walk } from "./workspace-walk.js";

const { O_RDONLY, O_WRONLY, O_CREAT, O_APPEND, O_DIRECTORY, O_NONBLOCK } = constants;

export type {
  OpenInWorkspaceOptions,
  WorkspaceHandle,
  WorkspacePathOptions,
} from "./workspace-fs-options.js";

const finalOf = (o: WorkspacePathOptions) => (o.final === "nofollow" ? "nofollow" : "follow");

export function refuseHardlink(
  w: Pick<WalkResult, "ws">,
  input: string,
  st: Stats,
  action: "read" | "write",
  allow?: boolean,
) {
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
  // reading: one open by the real path, verified by the kernel's record of it, when that holds
  if (mode !== "write") {
    const direct = await openDirect(root, target, flags);
    if (direct) return openedHandle(direct, direct.file, true, input, mode, options, direct.stat);
  }
  const w = await walk(root, target, {
    input,
    final: finalOf(options),
    open: flags,
    fileMode: 0o666,
    createDirs: options.createParents === true && mode !== "read",
  });
  try {
    if (!w.file || !w.stat) throw errnoError("ENOENT", "open", w.real);
    return await openedHandle(
      w,
      w.file,
      w.dir.via.startsWith("/proc/self/fd/"),
      input,
      mode,
      options,
      w.stat,
    );
  } finally {
    await w.close();
  }
}

/** The opened entry as a handle, once it passed the hardlink and file-kind checks (closed if not). */
async function openedHandle(
  w: Pick<WalkResult, "ws" | "real">,
  file: FileHandle,
  /** The descriptor can be reached as /proc/self/fd/<fd> (no lookup by name). */
  procFd: boolean,
  input: string,
  mode: NonNullable<OpenInWorkspaceOptions["mode"]>,
  options: OpenInWorkspaceOptions,
  stat?: Stats,
): Promise<WorkspaceHandle> {
  try {
    const st = stat ?? (await file.stat());
    refuseHardlink(w, input, st, mode === "write" ? "write" : "read", options.allowHardlinks);
    if (!st.isFile() && !st.isDirectory()) throw notRegularFileError(input);
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
  // no symlink on the way: the same answer in a few direct calls (a final link is walked)
  const direct = await resolveDirect(root, target);
  if (direct !== null) return direct;
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
  // an existing directory reached without a symlink, and no link at the end: no walk needed
  const direct = await directParent(root, target);
  if (direct && !direct.stat?.isSymbolicLink() && !direct.stat?.isDirectory()) {
    try {
      if (direct.stat) {
        refuseHardlink(direct, input, direct.stat, "write", options.allowHardlinks);
        if (!direct.stat.isFile()) throw notRegularFileError(input);
      }
      await replaceInDir(direct.dir, direct.name, data, {
        mode: direct.stat ? direct.stat.mode & 0o7777 : (options.mode ?? 0o666),
        syncFile: true,
      });
      return { realPath: direct.real };
    } finally {
      direct.close();
    }
  }
  direct?.close();
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
    // the temp file is made and renamed relative to the verified directory's descriptor
    await replaceInDir(w.dir, w.name, data, {
      mode: w.stat ? w.stat.mode & 0o7777 : (options.mode ?? 0o666),
      syncFile: true,
      beforeRename: () => w.verify(),
    });
    return { realPath: w.real };
  } finally {
    await w.close();
  }
}
