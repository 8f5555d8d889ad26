/**
 * Synchronous shortcuts for the common case of the workspace walk on Linux: an entry whose parent
 * directory is reached by its real path with no symlink on the way, which the kernel's own record
 * of the opened descriptor (`/proc/self/fd/<fd>`) confirms. Each is a handful of system calls made
 * directly, where the walk pays a thread-pool trip per step (most of a small edit's time). Anything
 * else (a symlink anywhere, a missing directory, another kind of entry, a hardlink, a large file,
 * no /proc) gives null, and the caller takes the walk, which then says what is wrong.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { below, procFdInUse, type Workspace, workspaceOf } from "./workspace-walk.js";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
/** Linux's O_PATH: a descriptor that locates an entry without opening it. */
const O_PATH = 0o10000000;

/** Files up to this size are read synchronously (a read this small takes microseconds). */
export const DIRECT_READ_MAX = 1024 * 1024;

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

const readable = (st: Stats, allowHardlinks: boolean) =>
  st.isFile() && st.size > 0 && st.size <= DIRECT_READ_MAX && (allowHardlinks || st.nlink === 1);

/**
 * The bytes of a small regular file at `target`, located with O_PATH by its real path (nothing is
 * opened until the kernel confirms no symlink was crossed), then opened through that record.
 */
export async function readSmallDirect(
  root: string,
  target: string,
  allowHardlinks = false,
): Promise<Buffer | null> {
  if (!procFdInUse()) return null;
  const ws = await workspaceOf(root);
  const start = below(ws, path.resolve(ws.lexical, target));
  if (!start || start.length === 0) return null;
  const real = path.join(ws.real, ...start);
  let located: number;
  try {
    located = openSync(real, O_PATH | O_NOFOLLOW);
  } catch {
    return null;
  }
  let fd: number | undefined;
  try {
    if (!readable(fstatSync(located), allowHardlinks)) return null;
    if (readlinkSync(`/proc/self/fd/${located}`) !== real) return null;
    fd = openSync(`/proc/self/fd/${located}`, O_RDONLY | O_NONBLOCK);
    const st = fstatSync(fd);
    if (!readable(st, allowHardlinks)) return null;
    const buffer = Buffer.allocUnsafe(st.size);
    let length = 0;
    while (length < st.size) {
      const n = readSync(fd, buffer, length, st.size - length, length);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
    closeSync(located);
  }
}
