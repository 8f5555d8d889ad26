import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

export interface MemoryFile {
  /** Workspace-relative, `/`-separated (extra paths outside the workspace stay absolute). */
  rel: string;
  abs: string;
  mtimeMs: number;
  size: number;
}

async function fileInfo(abs: string, rel: string): Promise<MemoryFile | undefined> {
  const st = await lstat(abs).catch(() => undefined);
  // symlinks are skipped: a memory file must really live where it is indexed
  if (!st?.isFile()) return undefined;
  return { rel, abs, mtimeMs: st.mtimeMs, size: st.size };
}

async function walkMarkdown(dir: string, relBase: string, out: MemoryFile[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isSymbolicLink()) continue;
    const abs = path.join(dir, entry.name);
    const rel = relBase ? `${relBase}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await walkMarkdown(abs, rel, out);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
      const info = await fileInfo(abs, rel);
      if (info) out.push(info);
    }
  }
}

/** MEMORY.md (or memory.md), memory/**\/*.md and the configured extra paths (files or directories). */
export async function listMemoryFiles(
  workspaceDir: string,
  extraPaths: string[] = [],
): Promise<MemoryFile[]> {
  const out: MemoryFile[] = [];
  const main =
    (await fileInfo(path.join(workspaceDir, "MEMORY.md"), "MEMORY.md")) ??
    (await fileInfo(path.join(workspaceDir, "memory.md"), "memory.md"));
  if (main) out.push(main);
  await walkMarkdown(path.join(workspaceDir, "memory"), "memory", out);
  for (const extra of extraPaths) {
    const abs = path.resolve(workspaceDir, extra);
    const rel = path.relative(workspaceDir, abs).split(path.sep).join("/");
    const shown = rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
    const st = await lstat(abs).catch(() => undefined);
    if (st?.isDirectory()) await walkMarkdown(abs, shown, out);
    else if (st?.isFile() && abs.toLowerCase().endsWith(".md"))
      out.push({ rel: shown, abs, mtimeMs: st.mtimeMs, size: st.size });
  }
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.abs) && seen.add(f.abs)).sort((a, b) => a.rel.localeCompare(b.rel));
}
