import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type FsBridge, type FsStat, ToolInputError } from "@clawtools/core";
import { openVerified, resolveContained } from "./containment.js";

export interface NodeBridgeOptions {
  /** Refuse anything outside `root`, symlinks included (default true). */
  workspaceOnly?: boolean;
}

export type NodeBridge = Required<FsBridge> & { root: string; workspaceOnly: boolean };

function kind(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FsStat["type"] {
  if (st.isSymbolicLink()) return "symlink";
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "directory";
  return "other";
}

const localBridges = new WeakSet<object>();

/** True for bridges made by `createNodeBridge`: native tools (rg) may read their files directly. */
export function isNodeBridge(bridge: FsBridge): bridge is NodeBridge {
  return localBridges.has(bridge);
}

/** The local disk under `root`. Writes are atomic (temp file + rename in the same directory). */
export function createNodeBridge(root: string, options: NodeBridgeOptions = {}): NodeBridge {
  const workspaceOnly = options.workspaceOnly ?? true;
  const base = path.resolve(root);
  const abs = (filePath: string, cwd?: string) => path.resolve(cwd ?? base, filePath);

  const check = async (filePath: string, cwd?: string, final: "follow" | "nofollow" = "follow") => {
    const target = abs(filePath, cwd);
    if (!workspaceOnly) return { path: target };
    return resolveContained(base, target, { input: filePath, final });
  };

  const refuseHardlink = async (p: string, input: string) => {
    const st = await fs.lstat(p).catch(() => null);
    if (st?.isFile() && st.nlink > 1) {
      throw new ToolInputError(
        `Refusing to write through a hardlink (${st.nlink} links) inside ${base}: ${input}`,
      );
    }
  };

  const bridge: NodeBridge = {
    root: base,
    workspaceOnly,
    async stat({ filePath, cwd }) {
      const checked = await check(filePath, cwd);
      const st = await fs.stat(checked.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
        throw error;
      });
      return st ? { type: kind(st), size: st.size, mtimeMs: st.mtimeMs } : null;
    },
    async readFile({ filePath, cwd }) {
      const checked = await check(filePath, cwd);
      if (!workspaceOnly) return fs.readFile(checked.path);
      const { handle, stat } = await openVerified(base, checked, filePath);
      try {
        if (stat.isDirectory()) throw new ToolInputError(`Not a file: ${filePath}`);
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    },
    async *readStream({ filePath, cwd, signal }) {
      const checked = await check(filePath, cwd);
      const { handle, stat } = workspaceOnly
        ? await openVerified(base, checked, filePath)
        : { handle: await fs.open(checked.path, constants.O_RDONLY), stat: await fs.stat(checked.path) };
      try {
        if (stat.isDirectory()) throw new ToolInputError(`Not a file: ${filePath}`);
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
        await handle.close();
      }
    },
    async mkdirp({ filePath, cwd }) {
      const checked = await check(filePath, cwd);
      await fs.mkdir(checked.path, { recursive: true });
      // re-check: a component created concurrently could be a symlink leading out
      await check(filePath, cwd);
    },
    async writeFile({ filePath, cwd, data }) {
      const checked = await check(filePath, cwd);
      if (workspaceOnly) await refuseHardlink(checked.path, filePath);
      const dir = path.dirname(checked.path);
      const temp = path.join(dir, `.${path.basename(checked.path)}.${randomBytes(6).toString("hex")}.tmp`);
      const existing = await fs.stat(checked.path).catch(() => null);
      try {
        const handle = await fs.open(
          temp,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
          existing?.mode ?? 0o644,
        );
        try {
          await handle.writeFile(data);
          await handle.sync();
        } finally {
          await handle.close();
        }
        if (workspaceOnly) await check(filePath, cwd); // the directory must not have moved out meanwhile
        await fs.rename(temp, checked.path);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    async readdir({ filePath, cwd }) {
      const checked = await check(filePath, cwd);
      const entries = await fs.readdir(checked.path, { withFileTypes: true });
      return entries.map((entry) => ({ name: entry.name, type: kind(entry) }));
    },
    async rename({ from, to, cwd }) {
      const source = await check(from, cwd, "nofollow");
      const target = await check(to, cwd);
      if (workspaceOnly) await refuseHardlink(target.path, to);
      await fs.rename(source.path, target.path);
    },
    async remove({ filePath, cwd }) {
      // unlink semantics: a final symlink or hardlink is removed, never followed
      const checked = await check(filePath, cwd, "nofollow");
      await fs.rm(checked.path, { recursive: false });
    },
  };
  localBridges.add(bridge);
  return bridge;
}
