/**
 * The before/after scan around a command: every path of the workspace with its metadata, and
 * its journal state taken from the last scan when the metadata did not move (unchanged trees
 * cost an lstat per entry, never a read); changed files are read and copied once.
 */
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { type BlobStore, captureState, type FileState } from "./file-state.js";

export interface ScanEntry {
  /** size, mtime, ctime, inode and mode: what says a path may have changed. */
  meta: string;
  state: FileState;
}

export type Scan = Map<string, ScanEntry>;

export interface ScanOptions {
  /** Names of directories not walked (default `.git`, `node_modules`). */
  exclude?: string[];
  /** Files larger than this are not copied (their change is listed as skipped). */
  maxFileBytes?: number;
}

export const DEFAULT_EXCLUDE = [".git", "node_modules"];

/** Walks `root` (symlinks are entries, never followed); `previous` supplies states whose metadata is unchanged. */
export async function scanTree(
  root: string,
  blobs: BlobStore,
  previous: Scan | undefined,
  options: ScanOptions = {},
): Promise<{ scan: Scan; added: number; skipped: string[] }> {
  const exclude = new Set(options.exclude ?? DEFAULT_EXCLUDE);
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
  const scan: Scan = new Map();
  const skipped: string[] = [];
  let added = 0;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.isDirectory() && exclude.has(entry.name)) return;
        const abs = path.join(dir, entry.name);
        const r = rel ? `${rel}/${entry.name}` : entry.name;
        const st = await lstat(abs).catch(() => null);
        if (!st) return;
        const meta = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.mode}`;
        const known = previous?.get(r);
        if (known && known.meta === meta) scan.set(r, known);
        else if (st.isFile() && st.size > maxFileBytes) {
          skipped.push(r);
          scan.set(r, { meta, state: { type: "file", mode: st.mode & 0o7777, hash: "", size: st.size } });
        } else {
          const captured = await captureState(abs, blobs);
          added += captured.added;
          scan.set(r, { meta, state: captured.state });
        }
        if (st.isDirectory()) await walk(abs, r);
      }),
    );
  };
  await walk(root, "");
  return { scan, added, skipped };
}
