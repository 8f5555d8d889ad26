import { createHash } from "node:crypto";
import type { FileFingerprint, MemoryChanges } from "../backend/types.js";
import { type ChunkOptions, chunkMarkdown } from "../chunk.js";
import { listMemoryFiles, readMemoryFile, type SkippedFile } from "./files.js";

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
  for (const file of listing.files) {
    const prior = gone.get(file.rel);
    gone.delete(file.rel);
    if (prior && prior.mtime === file.mtimeMs && prior.size === file.size) {
      out.unchanged++;
      continue;
    }
    options.signal?.throwIfAborted();
    let read: Awaited<ReturnType<typeof readMemoryFile>>;
    try {
      read = await readMemoryFile(file);
    } catch (error) {
      if (prior) gone.set(file.rel, prior); // no longer readable: it leaves the index
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted meanwhile
      out.skipped.push({ path: file.rel, reason: (error as Error).message });
      continue;
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
