/**
 * The before/after scan around a command: every path of the workspace with its metadata, and
 * its journal state taken from the last scan when the metadata did not move (unchanged trees
 * cost an lstat per entry, never a read); changed files are read and copied once.
 */
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
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
  /** Absolute paths of directories not walked (the journal's own state directory inside the workspace). */
  skipDirs?: string[];
}

export const DEFAULT_EXCLUDE = [".git", "node_modules"];

/**
 * Entries looked at between two turns of the event loop. The metadata walk is synchronous (an
 * lstat through the thread pool costs several times the call itself, and a scan is mostly
 * lstats), in slices this size, so a huge workspace never holds the loop for long.
 */
const SLICE = 512;

/** Walks `root` (symlinks are entries, never followed); `previous` supplies states whose metadata is unchanged. */
export async function scanTree(
  root: string,
  blobs: BlobStore,
  previous: Scan | undefined,
  options: ScanOptions = {},
): Promise<{ scan: Scan; added: number; skipped: string[] }> {
  const exclude = new Set(options.exclude ?? DEFAULT_EXCLUDE);
  const skipDirs = new Set(options.skipDirs ?? []);
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
  const scan: Scan = new Map();
  const skipped: string[] = [];
  /** Paths whose metadata moved: read and copied after the walk. */
  const changed: Array<{ abs: string; rel: string; meta: string }> = [];
  const dirs: Array<[string, string]> = [[root, ""]];
  let done = 0;
  while (dirs.length > 0) {
    const [dir, rel] = dirs.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++done % SLICE === 0) await nextTurn();
      if (entry.isDirectory() && exclude.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory() && skipDirs.has(abs)) continue;
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (!st) continue;
      const meta = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.mode}`;
      const known = previous?.get(r);
      if (known && known.meta === meta) scan.set(r, known);
      else if (st.isFile() && st.size > maxFileBytes) {
        skipped.push(r);
        scan.set(r, { meta, state: { type: "file", mode: st.mode & 0o7777, hash: "", size: st.size } });
      } else changed.push({ abs, rel: r, meta });
      if (st.isDirectory()) dirs.push([abs, r]);
    }
  }
  let added = 0;
  for (let i = 0; i < changed.length; i += 64)
    await Promise.all(
      changed.slice(i, i + 64).map(async ({ abs, rel, meta }) => {
        const captured = await captureState(abs, blobs);
        added += captured.added;
        scan.set(rel, { meta, state: captured.state });
      }),
    );
  return { scan, added, skipped };
}
