import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import {
  errnoError,
  keptChangingError,
  nameTooLongError,
  pathEscapesError,
  pathTooLongError,
  symlinkEscapesError,
  symlinkNotFollowedError,
  tooManySymlinksError,
} from "./workspace-errors.js";

import { below, isInside, type Workspace, workspaceOf } from "./workspace-root.js";

export { below, isInside, type Workspace, workspaceOf };

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
/** Linux's O_PATH (Node does not name it): a descriptor that locates an entry without opening it. */
const O_PATH = 0o10000000;
const MAX_HOPS = 40;
const MAX_ATTEMPTS = 16;

const HAS_PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");
let procFd = HAS_PROC_FD;

/**
 * Linux: every lookup goes through `/proc/self/fd/<dir fd>/<name>`, which resolves `name` inside
 * the already opened directory (openat from Node). Elsewhere (or when forced off, for tests) a
 * lookup uses the directory's real path and every directory's identity is checked afterwards.
 */
export function useProcFd(on: boolean): void {
  procFd = on && HAS_PROC_FD;
}

/** Whether lookups go through `/proc/self/fd` (see useProcFd). */
export const procFdInUse = () => procFd;

/** An opened, verified directory. `via` is the path that reaches it without any lookup by name. */
export interface DirRef {
  handle: FileHandle;
  real: string;
  via: string;
  /** Identity, checked again after each lookup where there is no /proc (0 with /proc: unused). */
  dev: number;
  ino: number;
}

export const entryPath = (dir: Pick<DirRef, "via">, name: string) => `${dir.via}/${name}`;

/** The system's own limits (PATH_MAX 4096, NAME_MAX 255 bytes), which a walk by descriptors would not meet. */
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;

function checkLength(ws: Workspace, components: string[], input: string): void {
  let total = Buffer.byteLength(ws.real);
  for (const name of components) {
    const bytes = Buffer.byteLength(name);
    if (bytes > MAX_NAME_BYTES) throw nameTooLongError(input, bytes);
    total += bytes + 1;
  }
  if (total > MAX_PATH_BYTES) throw pathTooLongError(input, total);
}

class Race extends Error {}

async function openDir(real: string, via: string, flags = 0): Promise<DirRef> {
  const handle = await fs.open(via, O_RDONLY | O_DIRECTORY | flags);
  if (procFd) return { handle, real, via: `/proc/self/fd/${handle.fd}`, dev: 0, ino: 0 };
  const st = await handle.stat().catch(async (error) => {
    await handle.close();
    throw error;
  });
  return { handle, real, via: real, dev: st.dev, ino: st.ino };
}

/** Closing never delays the answer: a close is started and its failure ignored. */
const release = (dir: DirRef) => {
  dir.handle.close().catch(() => {});
};

/** The link target when `name` in `dir` is a symlink, null when it is something else. */
async function linkAt(dir: DirRef, name: string): Promise<string | null> {
  const at = entryPath(dir, name);
  const st = await fs.lstat(at).catch(() => null);
  if (!st) throw new Race();
  if (!st.isSymbolicLink()) return null;
  return fs.readlink(at).catch(() => {
    throw new Race(); // replaced between the two calls
  });
}

export interface WalkOptions {
  /** The path as the caller gave it, for messages. */
  input: string;
  /** Follow a final symlink (hop by hop, each hop inside the root) or stop at it. */
  final: "follow" | "nofollow";
  /** Open the final entry with these flags (O_NOFOLLOW is always added). */
  open?: number;
  /** Mode for a file created by `open` with O_CREAT. */
  fileMode?: number;
  /** Create missing directories on the way (never through a symlink). */
  createDirs?: boolean;
}

export interface WalkResult {
  ws: Workspace;
  /** The verified directory that holds the final entry (the root for the root itself). */
  dir: DirRef;
  /** The final entry's name in `dir`; "" for the root itself. */
  name: string;
  /** Real path of the final entry (whether or not it exists). */
  real: string;
  /** lstat of the final entry (fstat when opened); null when it does not exist. */
  stat: Stats | null;
  /** Components below `name` that do not exist either (a missing directory on the way). */
  rest: string[];
  /** The opened final entry, when `open` was asked and it exists. The caller closes it. */
  file?: FileHandle;
  /** Without /proc: re-checks that no directory of the walk was swapped (throws if one was). */
  verify(): Promise<void>;
  /** Closes the directories (not `file`). */
  close(): Promise<void>;
}

/**
 * Turns `target` (absolute, or relative to the root) into a verified entry inside the root:
 * each component is opened without following links, from the directory opened before it.
 * A symlink met on the way is read and its target walked again from the root, so every hop is
 * checked; one that leads outside is refused. Lookups that race a concurrent change are retried.
 */
export async function walk(root: string, target: string, options: WalkOptions): Promise<WalkResult> {
  const ws = await workspaceOf(root);
  const abs = path.resolve(ws.lexical, target);
  const start = below(ws, abs);
  if (!start) throw pathEscapesError(root, options.input);
  checkLength(ws, start, options.input);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      return await walkOnce(ws, start, options);
    } catch (error) {
      if (!(error instanceof Race)) throw error;
    }
  }
  throw keptChangingError(root, options.input);
}

/**
 * Linux shortcut for deep paths: open the parent directory by its full real path without
 * following a final link, then ask the kernel where the opened directory is
 * (`/proc/self/fd/<fd>`). If that is exactly the expected real path, no symlink was crossed and
 * the descriptor is the verified directory; anything else (a symlink on the way, a race, a bind
 * mount) falls back to the component-by-component walk.
 */
async function openParentDirect(ws: Workspace, start: string[]): Promise<DirRef | null> {
  if (!procFd || start.length < 3) return null;
  const real = path.join(ws.real, ...start.slice(0, -1));
  const dir = await openDir(real, real, O_NOFOLLOW).catch(() => null);
  if (!dir) return null;
  const seen = await fs.readlink(dir.via).catch(() => null);
  if (seen === real) return dir;
  release(dir);
  return null;
}

/** An entry located by its real path (O_PATH) and verified: see `locateDirect`. The caller closes `located`. */
export interface Located {
  ws: Workspace;
  real: string;
  /** The O_PATH descriptor: reachable as `/proc/self/fd/<located>`, never opened for I/O. */
  located: number;
  /** fstat of that descriptor: the entry's own stat (a regular file or a directory). */
  stat: Stats;
}

/**
 * Linux shortcut for reaching an entry to read: locate it by its full real path with O_PATH (a
 * lookup, not an open: a device or FIFO a link points at is never opened), then ask the kernel
 * where it is (`/proc/self/fd/<fd>`, its own record, no disk touched). A regular file or directory
 * at exactly the expected real path means no symlink was crossed on the way. Anything else (a
 * link anywhere on the way, another kind of entry, a race, a bind mount, a missing entry) gives
 * null, and the caller walks component by component.
 */
export async function locateDirect(root: string, target: string): Promise<Located | null> {
  if (!procFd) return null;
  const ws = await workspaceOf(root);
  const start = below(ws, path.resolve(ws.lexical, target));
  if (!start || start.length === 0) return null;
  const real = path.join(ws.real, ...start);
  // O_PATH only looks the path up: whatever a link on the way points at (a device, a FIFO
  // outside the workspace), nothing is opened until the entry is known to be the verified one
  let located: number;
  try {
    located = openSync(real, O_PATH | O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(located);
    if ((stat.isFile() || stat.isDirectory()) && readlinkSync(`/proc/self/fd/${located}`) === real)
      return { ws, real, located, stat };
  } catch {
    // gone or changed since the lookup: the walk decides
  }
  closeSync(located);
  return null;
}

/**
 * The located entry (`locateDirect`) opened through the kernel's record of that inode (no
 * lookup by name). Fewer thread-pool trips than a walk.
 */
export async function openDirect(
  root: string,
  target: string,
  flags: number,
): Promise<{ ws: Workspace; file: FileHandle; real: string; stat: Stats } | null> {
  const found = await locateDirect(root, target);
  if (!found) return null;
  try {
    const file = await fs.open(`/proc/self/fd/${found.located}`, flags).catch(() => null);
    // the located descriptor's stat is the opened inode's: no second fstat
    return file ? { ws: found.ws, file, real: found.real, stat: found.stat } : null;
  } finally {
    closeSync(found.located);
  }
}

async function walkOnce(ws: Workspace, start: string[], options: WalkOptions): Promise<WalkResult> {
  let rootDir: DirRef | undefined;
  const root = async () => {
    // the root's real path was resolved once: a root later replaced by a symlink fails closed
    rootDir ??= await openDir(ws.real, ws.real, O_NOFOLLOW);
    return rootDir;
  };
  const direct = await openParentDirect(ws, start);
  let chain: DirRef[] = [direct ?? (await root())];
  const closeChain = (keep?: DirRef) => {
    for (const d of chain) if (d !== keep && d !== rootDir) release(d);
  };
  const closeAll = () => {
    closeChain();
    if (rootDir) release(rootDir);
  };
  const verify = async () => {
    if (procFd) return;
    for (const d of chain) {
      const st = await fs.lstat(d.real).catch(() => null);
      if (!st?.isDirectory() || st.dev !== d.dev || st.ino !== d.ino) throw new Race();
    }
  };
  let components = direct ? start.slice(-1) : start;
  let hops = 0;
  const follow = (dir: DirRef, link: string, rest: string[]) => {
    if (++hops > MAX_HOPS) throw tooManySymlinksError(options.input);
    const resolved = path.resolve(dir.real, link);
    const next = below(ws, resolved);
    if (!next) throw symlinkEscapesError(ws.root, options.input, resolved);
    components = [...next, ...rest];
    checkLength(ws, components, options.input);
  };
  const done = (dir: DirRef, name: string, stat: Stats | null, rest: string[], file?: FileHandle) => {
    const result: WalkResult = {
      ws,
      dir,
      name,
      real: path.join(dir.real, name, ...rest),
      stat,
      rest,
      verify,
      close: async () => closeAll(),
    };
    if (file) result.file = file;
    return result;
  };
  try {
    for (;;) {
      const dir = chain[chain.length - 1]!;
      const [name, ...rest] = components;
      if (name === undefined) {
        // the root itself
        const file =
          options.open === undefined ? undefined : await fs.open(procFd ? dir.via : ws.real, options.open);
        return done(dir, "", file ? await file.stat() : await dir.handle.stat(), [], file);
      }
      const at = entryPath(dir, name);
      if (rest.length > 0) {
        let child: DirRef;
        try {
          child = await openDir(path.join(dir.real, name), at, O_NOFOLLOW);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT") {
            if (!options.createDirs) return done(dir, name, null, rest);
            await fs.mkdir(at).catch((e: NodeJS.ErrnoException) => {
              if (e.code !== "EEXIST") throw e;
            });
            continue;
          }
          if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
          const link = await linkAt(dir, name);
          if (link === null) throw errnoError("ENOTDIR", "open", path.join(dir.real, name));
          follow(dir, link, rest);
          closeChain();
          chain = [await root()];
          continue;
        }
        chain.push(child);
        await verify();
        if (procFd) {
          closeChain(child);
          chain = [child];
        }
        components = rest;
        continue;
      }
      // the final component
      if (options.open !== undefined) {
        let file: FileHandle;
        try {
          file = await fs.open(at, options.open | O_NOFOLLOW, options.fileMode);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT") return done(dir, name, null, []);
          if (code !== "ELOOP" && !(code === "ENOTDIR" && options.open & O_DIRECTORY)) throw error;
          const link = await linkAt(dir, name);
          if (link === null) throw errnoError("ENOTDIR", "open", path.join(dir.real, name));
          if (options.final === "nofollow") throw symlinkNotFollowedError(ws.root, options.input);
          follow(dir, link, []);
          closeChain();
          chain = [await root()];
          continue;
        }
        try {
          const st = await file.stat();
          if (!procFd) {
            const named = await fs.lstat(at).catch(() => null);
            if (named?.dev !== st.dev || named?.ino !== st.ino) throw new Race();
            await verify();
          }
          return done(dir, name, st, [], file);
        } catch (error) {
          await file.close().catch(() => {});
          throw error;
        }
      }
      const st = await fs.lstat(at).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return null;
        throw e;
      });
      if (st?.isSymbolicLink() && options.final === "follow") {
        const link = await fs.readlink(at).catch(() => {
          throw new Race();
        });
        follow(dir, link, []);
        closeChain();
        chain = [await root()];
        continue;
      }
      await verify();
      return done(dir, name, st, []);
    }
  } catch (error) {
    closeAll();
    throw error;
  }
}
