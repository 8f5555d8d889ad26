import type { Stats } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolInputError } from "@clawtools/core";
import { openInWorkspace, quotePath } from "@clawtools/core/safety";

/** Memory files larger than this are neither indexed nor read (16 MiB). */
export const MAX_MEMORY_FILE_BYTES = 16 * 1024 * 1024;

export interface MemoryFile {
  /** Workspace-relative, `/`-separated (extra paths outside the workspace stay absolute). */
  rel: string;
  /** The containment root the file is opened under (the workspace, or an extra path outside it). */
  root: string;
  /** The file's path below `root`, `/`-separated. */
  target: string;
  /** Where the file must really be: opening it through any link is refused. */
  real: string;
  mtimeMs: number;
  size: number;
}

/** A memory file (or directory) that was not indexed, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

export interface MemoryListing {
  files: MemoryFile[];
  skipped: SkippedFile[];
}

const SYMLINK = "a symlink; memory files are never read through links";

const isMarkdown = (name: string) => name.toLowerCase().endsWith(".md");

/** Why a directory entry cannot be a memory file (a link of either kind, too big), or undefined. */
function refusal(st: Stats): string | undefined {
  if (st.isSymbolicLink()) return SYMLINK;
  if (st.isFile() && st.nlink > 1)
    return `a hardlink (${st.nlink} links); memory files are never read through links`;
  if (st.isFile() && st.size > MAX_MEMORY_FILE_BYTES)
    return `${st.size} bytes, over the ${MAX_MEMORY_FILE_BYTES}-byte limit for memory files`;
  return undefined;
}

/** A containment root: its spelling, its real path, and how its files are shown. */
interface Root {
  root: string;
  real: string;
  /** Prefix of the shown path ("" for the workspace, the absolute path for an outside extra dir). */
  shown: string;
}

const shownPath = (root: Root, target: string) =>
  root.shown ? (target ? `${root.shown}/${target}` : root.shown) : target;

/**
 * Lists one directory below a containment root from its verified descriptor (the open and the
 * check are one walk, and no link is followed on the way: a directory reached through one is
 * refused), then recurses. Entries are statted relative to that descriptor.
 */
async function walkDir(root: Root, dirTarget: string, out: MemoryListing): Promise<void> {
  const shown = shownPath(root, dirTarget);
  let dir: Awaited<ReturnType<typeof openInWorkspace>>;
  try {
    dir = await openInWorkspace(root.root, dirTarget || ".", {
      mode: "dir",
      final: "nofollow",
      input: shown,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      out.skipped.push({ path: shown, reason: (error as Error).message });
    return;
  }
  const subdirs: string[] = [];
  try {
    if (dir.realPath !== path.join(root.real, dirTarget)) {
      out.skipped.push({
        path: shown,
        reason: "reached through a symlink; memory files are never read through links",
      });
      return;
    }
    for (const entry of await readdir(dir.path, { withFileTypes: true })) {
      const target = dirTarget ? `${dirTarget}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        subdirs.push(target);
        continue;
      }
      if (entry.isSymbolicLink()) {
        out.skipped.push({ path: shownPath(root, target), reason: SYMLINK });
        continue;
      }
      if (!isMarkdown(entry.name) || !entry.isFile()) continue;
      const st = await lstat(`${dir.path}/${entry.name}`).catch(() => undefined);
      if (st) record(root, target, st, out);
    }
  } finally {
    await dir.close();
  }
  for (const sub of subdirs) await walkDir(root, sub, out);
}

/** One file directly below a root (MEMORY.md, an extra file), checked like a directory entry. */
async function addFile(root: Root, target: string, out: MemoryListing): Promise<boolean> {
  const st = await lstat(path.join(root.real, target)).catch(() => undefined);
  if (!st) return false;
  record(root, target, st, out);
  return true;
}

/** A file found below a root: listed, or skipped with the reason it is refused. */
function record(root: Root, target: string, st: Stats, out: MemoryListing): void {
  const why = refusal(st);
  if (why) out.skipped.push({ path: shownPath(root, target), reason: why });
  else if (st.isFile())
    out.files.push({
      rel: shownPath(root, target),
      root: root.root,
      target,
      real: path.join(root.real, target),
      mtimeMs: st.mtimeMs,
      size: st.size,
    });
}

/** Where a path given as memory (the workspace's own files or an extra path) is opened from. */
export async function rootFor(
  workspaceDir: string,
  abs: string,
  extraRoot?: string,
): Promise<{ root: Root; target: string } | undefined> {
  const ws = path.resolve(workspaceDir);
  const rel = path.relative(ws, abs);
  const base = extraRoot ?? ws;
  const inWorkspace = rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  const rootDir = inWorkspace ? ws : base;
  const real = await realpath(rootDir).catch(() => undefined);
  if (!real) return undefined;
  const target = path.relative(rootDir, abs).split(path.sep).join("/");
  return { root: { root: rootDir, real, shown: inWorkspace ? "" : rootDir }, target };
}

/**
 * MEMORY.md (or memory.md), memory/**\/*.md and the configured extra paths (files or
 * directories). Links are never followed: `memory/` being a symlink, any symlink inside it, and
 * regular files with more than one hard link are reported in `skipped` instead.
 */
export async function listMemoryFiles(
  workspaceDir: string,
  extraPaths: string[] = [],
): Promise<MemoryListing> {
  const out: MemoryListing = { files: [], skipped: [] };
  const ws = path.resolve(workspaceDir);
  const real = await realpath(ws).catch(() => undefined);
  if (!real) return out;
  const root: Root = { root: ws, real, shown: "" };
  if (!(await addFile(root, "MEMORY.md", out))) await addFile(root, "memory.md", out);
  const memoryDir = await lstat(path.join(real, "memory")).catch(() => undefined);
  if (memoryDir?.isSymbolicLink()) out.skipped.push({ path: "memory", reason: SYMLINK });
  else if (memoryDir?.isDirectory()) await walkDir(root, "memory", out);
  for (const extra of extraPaths) {
    const abs = path.resolve(ws, extra);
    const st = await lstat(abs).catch(() => undefined);
    if (!st) continue;
    const extraRoot = st.isDirectory() ? abs : path.dirname(abs);
    const place = await rootFor(ws, abs, extraRoot);
    if (!place) continue;
    if (st.isSymbolicLink())
      out.skipped.push({ path: shownPath(place.root, place.target), reason: refusal(st)! });
    else if (st.isDirectory()) await walkDir(place.root, place.target, out);
    else if (isMarkdown(abs)) await addFile(place.root, place.target, out);
  }
  const seen = new Set<string>();
  out.files = out.files
    .filter((f) => !seen.has(f.real) && seen.add(f.real))
    .sort((a, b) => a.rel.localeCompare(b.rel));
  return out;
}

/**
 * Reads a memory file through the containment primitive: one walk from the root that opens each
 * component without following links; a file reached through a link, or with more than one hard
 * link, is refused. Size and mtime come from the opened descriptor.
 */
export async function readMemoryFile(
  file: Pick<MemoryFile, "root" | "target" | "real" | "rel">,
): Promise<{ text: string; mtimeMs: number; size: number }> {
  const handle = await openInWorkspace(file.root, file.target, {
    mode: "read",
    final: "nofollow",
    input: file.rel,
  });
  try {
    if (handle.realPath !== file.real)
      throw new ToolInputError(
        `Refusing to read ${quotePath(file.rel)}: it is reached through a symlink; memory files are never read through links.`,
      );
    if (!handle.stat.isFile()) throw new ToolInputError(`Not a file: ${quotePath(file.rel)}`);
    if (handle.stat.size > MAX_MEMORY_FILE_BYTES)
      throw new ToolInputError(
        `${quotePath(file.rel)} is ${handle.stat.size} bytes; memory files are read up to ${MAX_MEMORY_FILE_BYTES} bytes.`,
      );
    const text = await handle.handle.readFile("utf8");
    return { text, mtimeMs: handle.stat.mtimeMs, size: handle.stat.size };
  } finally {
    await handle.close();
  }
}
