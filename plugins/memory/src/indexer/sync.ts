import { createHash } from "node:crypto";
import { type ChunkOptions, chunkMarkdown } from "../chunk.js";
import type { EmbeddingProvider } from "../embed/types.js";
import type { IndexRecovery } from "../store/database.js";
import type { FileUpdate, IndexStore } from "../store/index-store.js";
import { listMemoryFiles, readMemoryFile, type SkippedFile } from "./files.js";

export interface SyncReport {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  chunks: number;
  /** Chunks still without a vector (the embedder failed); retried on the next sync. */
  pendingEmbeddings: number;
  embeddingError?: string;
  /** Memory files (or directories) left out: links, hardlinks, oversized files. */
  skipped: SkippedFile[];
  /** Set when the index file was corrupt: it was moved aside and rebuilt. */
  recovered?: IndexRecovery;
}

export interface SyncOptions {
  workspaceDir: string;
  extraPaths?: string[] | undefined;
  embedder: EmbeddingProvider;
  chunking?: ChunkOptions | undefined;
  signal?: AbortSignal | undefined;
}

const EMBED_BATCH = 256;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Brings the store up to date with the memory files on disk: files whose size and mtime are
 * unchanged are skipped, changed files (by content hash) are re-chunked, deleted files leave,
 * then chunks without a vector are embedded (reusing cached vectors of identical texts).
 */
export async function syncIndex(store: IndexStore, options: SyncOptions): Promise<SyncReport> {
  const { signal } = options;
  const listing = await listMemoryFiles(options.workspaceDir, options.extraPaths);
  const report: SyncReport = {
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    chunks: 0,
    pendingEmbeddings: 0,
    skipped: listing.skipped,
  };
  const known = store.files();
  const changed: FileUpdate[] = [];
  let added = 0;
  for (const file of listing.files) {
    const prior = known.get(file.rel);
    known.delete(file.rel);
    if (prior && prior.mtime === file.mtimeMs && prior.size === file.size) {
      report.unchanged++;
      continue;
    }
    signal?.throwIfAborted();
    let read: Awaited<ReturnType<typeof readMemoryFile>>;
    try {
      read = await readMemoryFile(file);
    } catch (error) {
      if (prior) known.set(file.rel, prior); // no longer readable: it leaves the index
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted meanwhile
      report.skipped.push({ path: file.rel, reason: (error as Error).message });
      continue;
    }
    const hash = sha(read.text);
    if (prior && prior.hash === hash) {
      store.touchFile({ path: file.rel, mtime: read.mtimeMs, size: read.size });
      report.unchanged++;
      continue;
    }
    if (!prior) added++;
    const chunks = chunkMarkdown(read.text, options.chunking).map((c) => ({ ...c, hash: sha(c.text) }));
    changed.push({ path: file.rel, hash, mtime: read.mtimeMs, size: read.size, chunks });
  }
  signal?.throwIfAborted();
  // a file refused this time (now a link, say) leaves the index like a deleted one
  store.applyChanges(known.keys(), changed);
  report.removed = known.size;
  report.added = added;
  report.updated = changed.length - added;
  await embedMissing(store, options.embedder, report, signal);
  report.chunks = store.chunkCount();
  return report;
}

/** Embeds chunks without a vector; a failing embedder leaves them pending for the next sync. */
async function embedMissing(
  store: IndexStore,
  embedder: EmbeddingProvider,
  report: SyncReport,
  signal?: AbortSignal,
): Promise<void> {
  const missing = store.chunksWithoutVector();
  if (missing.length === 0) return;
  const todo: typeof missing = [];
  const ready: Array<{ id: number; vector: Float32Array | number[] }> = [];
  for (const row of missing) {
    const cached = store.cachedVector(row.hash, embedder.model);
    if (cached) ready.push({ id: row.id, vector: cached });
    else todo.push(row);
  }
  for (let i = 0; i < todo.length; i += EMBED_BATCH) {
    const slice = todo.slice(i, i + EMBED_BATCH);
    try {
      const vectors = await embedder.embed(
        slice.map((r) => r.text),
        signal,
      );
      if (vectors.length !== slice.length)
        throw new Error(`Embedder returned ${vectors.length} vectors for ${slice.length} texts`);
      for (const [k, row] of slice.entries()) ready.push({ id: row.id, vector: vectors[k]! });
      store.cacheVectors(
        embedder.model,
        slice.map((row, k) => ({ hash: row.hash, vector: vectors[k]! })),
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      report.embeddingError = (error as Error).message;
      report.pendingEmbeddings = todo.length - i;
      break;
    }
  }
  store.storeVectors(ready);
}
