/**
 * The scan after a command, from the scan before and the directories inotify heard from while it
 * ran: only those are listed again (and any directory new or replaced in them walked whole); every
 * other directory's entries are carried over as they were. Valid only when the scan before was the
 * last scan after, unchanged (no event since), so the watches covered every directory of it.
 *
 * What inotify does not hear, and so a partial scan misses: a write through a shared mmap (the
 * kernel sends no event for it), a filesystem mounted inside the tree while the command ran. A
 * change missed here is never lost as bytes: the journal does not record it for this command, the
 * next full scan (any scan after an event in that directory, or after the watches were reset)
 * sees it, and an undo that reaches that file finds it not as the journal left it and refuses,
 * naming it, changing nothing.
 */
import { type Dirent, lstatSync, readdirSync, type Stats, statSync } from "node:fs";
import type { BlobStore } from "./file-state.js";
import {
  captureChanged,
  DEFAULT_EXCLUDE,
  metaOf,
  type Scan,
  type ScanOptions,
  type StatMeta,
  sameMeta,
} from "./scan.js";
import type { ScanObserver } from "./tree-watch.js";

const NO_THROW = { throwIfNoEntry: false } as const;

export async function rescanDirs(
  root: string,
  blobs: BlobStore,
  previous: Scan,
  /** Absolute paths of the directories with events. */
  dirty: Set<string>,
  options: ScanOptions,
  observer: ScanObserver,
): Promise<{ scan: Scan; added: number; skipped: string[] }> {
  const exclude = new Set(options.exclude ?? DEFAULT_EXCLUDE);
  const skipDirs = new Set(options.skipDirs ?? []);
  const maxFileBytes = options.maxFileBytes ?? 64 * 1024 * 1024;
  const scan: Scan = new Map(previous);
  const skipped: string[] = [];
  const changed: Array<{ abs: string; rel: string; meta: StatMeta }> = [];
  const prefix = root.endsWith("/") ? root : `${root}/`;
  // the direct children of each directory in the scan before (the root is "")
  const children = new Map<string, string[]>();
  for (const rel of previous.keys()) {
    const cut = rel.lastIndexOf("/");
    const parent = cut === -1 ? "" : rel.slice(0, cut);
    const list = children.get(parent);
    if (list) list.push(rel);
    else children.set(parent, [rel]);
  }
  const dropTree = (rel: string) => {
    scan.delete(rel);
    for (const child of children.get(rel) ?? []) dropTree(child);
  };
  const absOf = (rel: string) => (rel ? prefix + rel : root);
  /** Lists `rel` again; `whole`: walk every directory below it too (new or replaced). */
  const listed = new Set<string>();
  const list = (rel: string, st: Stats, whole: boolean) => {
    const abs = absOf(rel);
    listed.add(rel);
    observer.enterDir(abs, st);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    const present = new Set<string>();
    for (const entry of entries) {
      if (entry.isDirectory() && exclude.has(entry.name)) continue;
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (skipDirs.size > 0 && entry.isDirectory() && skipDirs.has(absOf(r))) continue;
      const cst = lstatSync(absOf(r), NO_THROW);
      if (!cst) continue;
      present.add(r);
      const known = previous.get(r);
      if (known && sameMeta(known.meta, cst)) scan.set(r, known);
      else if (cst.isFile() && cst.size > maxFileBytes) {
        skipped.push(r);
        scan.set(r, {
          meta: metaOf(cst),
          state: { type: "file", mode: cst.mode & 0o7777, hash: "", size: cst.size },
        });
      } else changed.push({ abs: absOf(r), rel: r, meta: metaOf(cst) });
      if (!cst.isDirectory()) {
        observer.entry(cst);
        if (known?.state?.type === "dir") dropTree(r);
        continue;
      }
      // a directory new here, or another one under the same name: walked whole, its old entries gone
      const same = known?.state?.type === "dir" && known.meta.ino === cst.ino;
      if (!same) for (const child of children.get(r) ?? []) dropTree(child);
      if (whole || !same) list(r, cst, true);
    }
    // what the scan before had here and is gone
    for (const child of children.get(rel) ?? []) if (!present.has(child)) dropTree(child);
  };
  const rootStat = statSync(root, NO_THROW);
  if (!rootStat?.isDirectory()) return { scan: new Map(), added: 0, skipped };
  observer.enterDir(root, rootStat);
  // shallowest first: a directory listed on the way (walked whole) is not listed again
  const order = [...dirty]
    .filter((abs) => abs === root || abs.startsWith(prefix))
    .map((abs) => (abs === root ? "" : abs.slice(prefix.length)))
    .sort((a, b) => a.split("/").length - b.split("/").length);
  for (const rel of order) {
    if (listed.has(rel)) continue;
    // a directory gone, or no longer one, was handled by its parent's listing
    const st = rel === "" ? rootStat : lstatSync(absOf(rel), NO_THROW);
    if (!st?.isDirectory() || (rel !== "" && scan.get(rel)?.state?.type !== "dir")) continue;
    list(rel, st, false);
  }
  for (const [rel, entry] of scan)
    if (entry.state?.type === "dir" && observer.keepDir) observer.keepDir(absOf(rel));
  const added = await captureChanged(scan, changed, blobs);
  return { scan, added, skipped };
}
