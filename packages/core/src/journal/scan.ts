/**
 * The before/after scan around a command: every path of the workspace with its metadata, and
 * its journal state taken from the last scan when the metadata did not move (unchanged trees
 * cost an lstat per entry, never a read); changed files are read and copied once.
 */
import { type Dirent, lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { type BlobStore, captureState, type FileState, sameState } from "./file-state.js";
import type { ScanObserver } from "./tree-watch.js";

/** Size, mtime, ctime, inode and mode: what says a path may have changed (ctime moves on every write, chmod and rename, and no process can set it back). */
export interface StatMeta {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

export interface ScanEntry {
  meta: StatMeta;
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
const NO_THROW = { throwIfNoEntry: false } as const;

export const metaOf = (st: Stats): StatMeta => ({
  size: st.size,
  mtimeMs: st.mtimeMs,
  ctimeMs: st.ctimeMs,
  ino: st.ino,
  mode: st.mode,
});

export const sameMeta = (a: StatMeta, st: Stats) =>
  a.ctimeMs === st.ctimeMs &&
  a.mtimeMs === st.mtimeMs &&
  a.size === st.size &&
  a.ino === st.ino &&
  a.mode === st.mode;

/**
 * Walks `root` (symlinks are entries, never followed); `previous` supplies states whose metadata
 * is unchanged; `observer` is told of each directory before its entries are read.
 */
export async function scanTree(
  root: string,
  blobs: BlobStore,
  previous: Scan | undefined,
  options: ScanOptions = {},
  observer?: ScanObserver,
): Promise<{ scan: Scan; added: number; skipped: string[] }> {
  const exclude = new Set(options.exclude ?? DEFAULT_EXCLUDE);
  const skipDirs = new Set(options.skipDirs ?? []);
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
  const scan: Scan = new Map();
  const skipped: string[] = [];
  /** Paths whose metadata moved: read and copied after the walk. */
  const changed: Array<{ abs: string; rel: string; meta: StatMeta }> = [];
  const top = path.resolve(root);
  const topStat = observer ? statSync(top, NO_THROW) : undefined;
  const dirs: Array<[string, string, Stats | undefined]> = [[top, "", topStat]];
  let done = 0;
  while (dirs.length > 0) {
    const [dir, rel, dirStat] = dirs.pop()!;
    if (observer && dirStat) observer.enterDir(dir, dirStat);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const entry of entries) {
      if (++done % SLICE === 0) await nextTurn();
      if (entry.isDirectory() && exclude.has(entry.name)) continue;
      // plain concatenation: the walk builds its paths from a resolved root, nothing to normalise
      const abs = prefix + entry.name;
      if (skipDirs.size > 0 && entry.isDirectory() && skipDirs.has(abs)) continue;
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      const st = lstatSync(abs, NO_THROW);
      if (!st) continue;
      const known = previous?.get(r);
      if (known && sameMeta(known.meta, st)) scan.set(r, known);
      else if (st.isFile() && st.size > maxFileBytes) {
        skipped.push(r);
        scan.set(r, {
          meta: metaOf(st),
          state: { type: "file", mode: st.mode & 0o7777, hash: "", size: st.size },
        });
      } else changed.push({ abs, rel: r, meta: metaOf(st) });
      if (st.isDirectory()) dirs.push([abs, r, st]);
      else observer?.entry(st);
    }
  }
  const added = await captureChanged(scan, changed, blobs);
  return { scan, added, skipped };
}

/** Reads and copies the paths whose metadata moved into `scan`; returns the new blob bytes. */
export async function captureChanged(
  scan: Scan,
  changed: Array<{ abs: string; rel: string; meta: StatMeta }>,
  blobs: BlobStore,
): Promise<number> {
  let added = 0;
  for (let i = 0; i < changed.length; i += 64)
    await Promise.all(
      changed.slice(i, i + 64).map(async ({ abs, rel, meta }) => {
        const captured = await captureState(abs, blobs);
        added += captured.added;
        scan.set(rel, { meta, state: captured.state });
      }),
    );
  return added;
}

/**
 * The paths whose state differs between two scans; `meanwhile` holds the states other calls
 * recorded in between, which a path starts from instead.
 */
export function diffScans(
  before: Scan,
  after: Scan,
  meanwhile: Map<string, FileState>,
): Array<{ rel: string; before: FileState; after: FileState }> {
  const changes: Array<{ rel: string; before: FileState; after: FileState }> = [];
  const compare = (rel: string, then: FileState, now: FileState) => {
    const b = meanwhile.has(rel) ? meanwhile.get(rel)! : then;
    if (!sameState(b, now)) changes.push({ rel, before: b, after: now });
  };
  for (const [rel, entry] of before) {
    const now = after.get(rel);
    // the after scan reuses the entry itself when the metadata did not move
    if (now !== entry || meanwhile.has(rel)) compare(rel, entry.state, now?.state ?? null);
  }
  for (const [rel, entry] of after) if (!before.has(rel)) compare(rel, null, entry.state);
  return changes;
}
