import fs from "node:fs/promises";
import { errnoError } from "./workspace-errors.js";
import { openInWorkspace, refuseHardlink } from "./workspace-fs.js";
import type { WorkspacePathOptions } from "./workspace-fs-options.js";
import { kindOf, listSmallDirInWorkspace, type WorkspaceDirEntry } from "./workspace-small.js";
import { entryPath, walk } from "./workspace-walk.js";

export type { WorkspaceDirEntry } from "./workspace-small.js";

// Entry operations inside a workspace: make a directory, remove, rename and list entries.

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
  // a small directory on a local disk is listed in place (no thread-pool trips)
  const small = await listSmallDirInWorkspace(root, target);
  if (small) return small;
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
