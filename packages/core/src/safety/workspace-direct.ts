/**
 * Synchronous shortcuts for the common case of the workspace walk on Linux: an entry whose parent
 * directory is reached by its real path with no symlink on the way, which the kernel's own record
 * of the opened descriptor (`/proc/self/fd/<fd>`) confirms. Each is a handful of system calls made
 * directly, where the walk pays a thread-pool trip per step (most of a small edit's time). Anything
 * else (a symlink anywhere, a missing directory, another kind of entry, a hardlink, a large file,
 * no /proc) gives null, and the caller takes the walk, which then says what is wrong.
 * (Small files and directories are read in place by `workspace-small.ts`.)
 */
import { closeSync, constants, lstatSync, openSync, readlinkSync, type Stats } from "node:fs";
import path from "node:path";
import { below, procFdInUse, type Workspace, workspaceOf } from "./workspace-walk.js";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;

export interface DirectParent {
  ws: Workspace;
  /** The verified parent directory: its real path, and the descriptor path that reaches it. */
  dir: { real: string; via: string };
  name: string;
  /** Real path of the entry. */
  real: string;
  /** lstat of the entry (a symlink is not followed); null when it does not exist. */
  stat: Stats | null;
  close(): void;
}

/** The parent of `target` opened by its real path and verified, with the entry's lstat; null: walk. */
export async function directParent(root: string, target: string): Promise<DirectParent | null> {
  if (!procFdInUse()) return null;
  const ws = await workspaceOf(root);
  const start = below(ws, path.resolve(ws.lexical, target));
  const name = start?.at(-1);
  if (!start || name === undefined) return null;
  const parent = path.join(ws.real, ...start.slice(0, -1));
  let fd: number;
  try {
    fd = openSync(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return null;
  }
  const via = `/proc/self/fd/${fd}`;
  try {
    // anything but the expected real path: a symlink was crossed on the way (or a race)
    if (readlinkSync(via) !== parent) throw new Error("not direct");
    const stat = lstatSync(`${via}/${name}`, { throwIfNoEntry: false }) ?? null;
    return {
      ws,
      dir: { real: parent, via },
      name,
      real: path.join(parent, name),
      stat,
      close: () => closeSync(fd),
    };
  } catch {
    closeSync(fd);
    return null;
  }
}

/** The verified real path `target` stands for when no symlink is on the way (the walk's answer), or null. */
export async function resolveDirect(root: string, target: string): Promise<string | null> {
  const found = await directParent(root, target);
  if (!found) return null;
  found.close();
  return found.stat?.isSymbolicLink() ? null : found.real;
}
