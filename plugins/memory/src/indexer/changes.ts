import { createHash } from "node:crypto";
import type { FileFingerprint, MemoryChanges } from "../backend/types.js";
import { type ChunkOptions, chunkMarkdown } from "../chunk.js";
import { listMemoryFiles, readMemoryFile, type SkippedFile } from "./files.js";

/** Files read ahead of the one being chunked. */
const READ_AHEAD = 8;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export interface CollectedChanges {
  changes: MemoryChanges;
  /** Of `changes.changed`, the files the backend did not hold before. */
  added: number;
  unchanged: number;
  skipped: SkippedFile[];
}

/**
 * Walks the memory files and compares them with what the backend holds: files whose size and
 * mtime are unchanged are skipped, changed files (by content hash) are re-chunked, files gone
 * or refused this time (now a link, say) are removed. Backend-independent.
 */
export async function collectChanges(
  known: ReadonlyMap<string, FileFingerprint>,
  options: {
    workspaceDir: string;
    extraPaths?: string[] | undefined;
    chunking?: ChunkOptions | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<CollectedChanges> {
  const listing = await listMemoryFiles(options.workspaceDir, options.extraPaths);
  const gone = new Map(known);
  const out: CollectedChanges = {
    changes: { removed: [], changed: [], touched: [] },
    added: 0,
    unchanged: 0,
    skipped: listing.skipped,
  };
  // reads overlap (the containment walk is several I/O round trips per file); results are
  // taken in listing order, so the outcome is the same as one file at a time
  const toRead = listing.files.filter((file) => {
    const prior = known.get(file.rel);
    return !(prior && prior.mtime === file.mtimeMs && prior.size === file.size);
  });
  const reads = new Map<string, ReturnType<typeof readMemoryFile>>();
  let next = 0;
  const startReads = (upTo: number) => {
    for (; next < Math.min(upTo, toRead.length); next++) {
      const read = readMemoryFile(toRead[next]!);
      read.catch(() => undefined); // awaited below, in order
      reads.set(toRead[next]!.rel, read);
    }
  };
  let taken = 0;
  for (const file of listing.files) {
    const prior = gone.get(file.rel);
    gone.delete(file.rel);
    if (prior && prior.mtime === file.mtimeMs && prior.size === file.size) {
      out.unchanged++;
      continue;
    }
    options.signal?.throwIfAborted();
    startReads(++taken + READ_AHEAD);
    let read: Awaited<ReturnType<typeof readMemoryFile>>;
    try {
      read = await reads.get(file.rel)!;
    } catch (error) {
      if (prior) gone.set(file.rel, prior); // no longer readable: it leaves the index
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted meanwhile
      out.skipped.push({ path: file.rel, reason: (error as Error).message });
      continue;
    } finally {
      reads.delete(file.rel);
    }
    const hash = sha256(read.text);
    if (prior && prior.hash === hash) {
      out.changes.touched.push({ path: file.rel, mtime: read.mtimeMs, size: read.size });
      out.unchanged++;
      continue;
    }
    if (!prior) out.added++;
    const chunks = chunkMarkdown(read.text, options.chunking).map((c) => ({ ...c, hash: sha256(c.text) }));
    out.changes.changed.push({ path: file.rel, hash, mtime: read.mtimeMs, size: read.size, chunks });
  }
  out.changes.removed = [...gone.keys()];
  return out;
}
