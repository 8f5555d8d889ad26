import { lstatSync, realpathSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { type FsBridge, type FsStat, ToolInputError } from "@clawtools/core";
import {
  isInsideRoot,
  listDirInWorkspace,
  mkdirInWorkspace,
  openInWorkspace,
  readSmallInWorkspace,
  removeInWorkspace,
  renameInWorkspace,
  resolveInWorkspace,
  statInWorkspace,
  type SmallFile,
  type WorkspaceHandle,
  writeFileAtomic,
} from "@clawtools/core/safety";

export interface NodeBridgeOptions {
  /** Refuse anything outside `root`, symlinks and hardlinks included (default true). */
  workspaceOnly?: boolean;
}

export type NodeBridge = Required<FsBridge> & {
  root: string;
  workspaceOnly: boolean;
  /** The file's identity for the write lock: its verified real path. */
  lockKey(args: { filePath: string; cwd?: string }): Promise<string>;
  /**
   * Opens a file or directory through the same verified walk, for native tools (rg): run them
   * on `path` (the descriptor), never on the string path. The caller closes the handle.
   */
  openVerified(args: { filePath: string; cwd?: string; dir?: boolean }): Promise<WorkspaceHandle>;
  /**
   * A small regular file (up to `maxBytes`, at most 64 KB) on a local disk, verified and read
   * whole in place; null for anything else, which the caller opens through `openVerified`.
   */
  readSmall(args: { filePath: string; cwd?: string; maxBytes?: number }): Promise<SmallFile | null>;
  /**
   * For a native tool that walked an opened directory itself (rg): whether a file it reports
   * (relative to that directory) may be shown — a regular file with one link, still inside the
   * root. Checked once per file, synchronously (one lstat and one realpath).
   */
  foundFileFilter(dir: WorkspaceHandle): (relative: string) => boolean;
};

function kind(st: Stats): FsStat["type"] {
  if (st.isSymbolicLink()) return "symlink";
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "directory";
  return "other";
}

/**
 * The file's bytes, by the size the open already found (as FileHandle.readFile reads them, without
 * the second fstat it would take); a file that reports no size is read to its end.
 */
async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  if (size === 0) return handle.readFile();
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const { bytesRead } = await handle.read(buffer, length, size - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

const localBridges = new WeakSet<object>();

/** True for bridges made by `createNodeBridge`: native tools (rg) may read their files directly. */
export function isNodeBridge(bridge: FsBridge): bridge is NodeBridge {
  return localBridges.has(bridge);
}

/**
 * The local disk under `root`, through core's workspace primitive: every path is checked and
 * used in one walk (no component followed out of the root, hardlinks refused), writes are
 * atomic (temp file + rename relative to the verified directory). With `workspaceOnly: false`
 * the same walk runs from `/`, so writes stay atomic and hardlinks are allowed.
 */
export function createNodeBridge(root: string, options: NodeBridgeOptions = {}): NodeBridge {
  const workspaceOnly = options.workspaceOnly ?? true;
  const base = path.resolve(root);
  const scope = workspaceOnly ? base : path.parse(base).root;
  const allowHardlinks = !workspaceOnly;
  const abs = (filePath: string, cwd?: string) => path.resolve(cwd ?? base, filePath);
  let realRoot: string | undefined;

  const openFile = async (filePath: string, cwd?: string) => {
    const opened = await openInWorkspace(scope, abs(filePath, cwd), {
      input: filePath,
      mode: "read",
      allowHardlinks,
    });
    if (opened.stat.isDirectory()) {
      await opened.close();
      throw new ToolInputError(`Not a file: ${filePath}`);
    }
    return opened;
  };

  const bridge: NodeBridge = {
    root: base,
    workspaceOnly,
    async stat({ filePath, cwd }) {
      const found = await statInWorkspace(scope, abs(filePath, cwd), { input: filePath });
      return found ? { type: kind(found.stat), size: found.stat.size, mtimeMs: found.stat.mtimeMs } : null;
    },
    async readFile({ filePath, cwd }) {
      // a small file reached without a symlink: read in a few direct calls, no walk
      const direct = await readSmallInWorkspace(scope, abs(filePath, cwd), { allowHardlinks });
      if (direct) return direct.data;
      const { handle, stat, close } = await openFile(filePath, cwd);
      try {
        return await readWhole(handle, stat.size);
      } finally {
        await close();
      }
    },
    async *readStream({ filePath, cwd, signal }) {
      const { handle, close } = await openFile(filePath, cwd);
      try {
        // small first reads for the common short page, then 1 MB reads for whatever streams on
        let size = 64 * 1024;
        for (;;) {
          signal?.throwIfAborted();
          const buffer = Buffer.allocUnsafe(size);
          const { bytesRead } = await handle.read(buffer, 0, size, null);
          if (bytesRead === 0) return;
          yield buffer.subarray(0, bytesRead);
          size = Math.min(size * 2, 1024 * 1024);
        }
      } finally {
        await close();
      }
    },
    async mkdirp({ filePath, cwd }) {
      await mkdirInWorkspace(scope, abs(filePath, cwd), { input: filePath });
    },
    async writeFile({ filePath, cwd, data }) {
      // missing parents are created in the same walk (never through a link leading out)
      await writeFileAtomic(scope, abs(filePath, cwd), data, { input: filePath, allowHardlinks });
    },
    async readdir({ filePath, cwd }) {
      return listDirInWorkspace(scope, abs(filePath, cwd), { input: filePath });
    },
    async rename({ from, to, cwd }) {
      await renameInWorkspace(scope, abs(from, cwd), abs(to, cwd), { allowHardlinks });
    },
    async remove({ filePath, cwd }) {
      // unlink semantics: a final symlink or hardlink is removed, never followed; a directory
      // only when empty
      await removeInWorkspace(scope, abs(filePath, cwd), { input: filePath, directory: true });
    },
    async lockKey({ filePath, cwd }) {
      const target = abs(filePath, cwd);
      try {
        return await resolveInWorkspace(scope, target, { input: filePath });
      } catch {
        // a final symlink leading out is only ever removed, never followed: lock the link itself;
        // a path that cannot be resolved at all is locked as spelled, and the call's own walk
        // then reports what is wrong with it
        return resolveInWorkspace(scope, target, { input: filePath, final: "nofollow" }).catch(
          () => `unresolved:${target}`,
        );
      }
    },
    foundFileFilter(dir) {
      if (!workspaceOnly) return () => true;
      const seen = new Map<string, boolean>();
      return (relative) => {
        let ok = seen.get(relative);
        if (ok === undefined) {
          try {
            const at = path.join(dir.path, relative);
            const st = lstatSync(at);
            realRoot ??= realpathSync.native(base);
            ok = st.isFile() && st.nlink === 1 && isInsideRoot(realRoot, realpathSync.native(at));
          } catch {
            ok = false;
          }
          seen.set(relative, ok);
        }
        return ok;
      };
    },
    readSmall({ filePath, cwd, maxBytes }) {
      return readSmallInWorkspace(scope, abs(filePath, cwd), {
        allowHardlinks,
        ...(maxBytes !== undefined ? { maxBytes } : {}),
      });
    },
    openVerified({ filePath, cwd, dir }) {
      return dir
        ? openInWorkspace(scope, abs(filePath, cwd), { input: filePath, mode: "dir" })
        : openFile(filePath, cwd);
    },
  };
  localBridges.add(bridge);
  return bridge;
}
