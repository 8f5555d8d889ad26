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
const CHUNKS_PER_WRITE = 200;
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
  // a file refused this time (now a link, say) leaves the index like a deleted one; changes are
  // written in transactions of about CHUNKS_PER_WRITE chunks, yielding to the event loop between
  store.applyChanges(known.keys(), []);
  for (let i = 0; i < changed.length; ) {
    const group: FileUpdate[] = [];
    let size = 0;
    while (
      i < changed.length &&
      (group.length === 0 || size + changed[i]!.chunks.length <= CHUNKS_PER_WRITE)
    ) {
      size += changed[i]!.chunks.length;
      group.push(changed[i++]!);
    }
    store.applyChanges([], group);
    await yieldToLoop();
  }
  report.removed = known.size;
  report.added = added;
  report.updated = changed.length - added;
  await embedMissing(store, options.embedder, report, signal);
  report.chunks = store.chunkCount();
  return report;
}

/** Lets other calls (I/O, timers) run between bounded slices of CPU work. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Embeds chunks without a vector, a batch at a time (cached vectors of identical texts first),
 * storing each batch and yielding to the event loop between batches; a failing embedder leaves
 * the rest pending for the next sync.
 */
async function embedMissing(
  store: IndexStore,
  embedder: EmbeddingProvider,
  report: SyncReport,
  signal?: AbortSignal,
): Promise<void> {
  const missing = store.chunksWithoutVector();
  for (let i = 0; i < missing.length; i += EMBED_BATCH) {
    signal?.throwIfAborted();
    const slice = missing.slice(i, i + EMBED_BATCH);
    const ready: Array<{ id: number; vector: Float32Array | number[] }> = [];
    const todo: Array<{ id: number; hash: string; text: string }> = [];
    for (const row of slice) {
      const cached = store.cachedVector(row.hash, embedder.model);
      if (cached) ready.push({ id: row.id, vector: cached });
      else todo.push({ ...row, text: store.chunkText(row.id) });
    }
    try {
      if (todo.length > 0) {
        const vectors = await embedder.embed(
          todo.map((r) => r.text),
          signal,
        );
        if (vectors.length !== todo.length)
          throw new Error(`Embedder returned ${vectors.length} vectors for ${todo.length} texts`);
        for (const [k, row] of todo.entries()) ready.push({ id: row.id, vector: vectors[k]! });
        store.cacheVectors(
          embedder.model,
          todo.map((row, k) => ({ hash: row.hash, vector: vectors[k]! })),
        );
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      report.embeddingError = (error as Error).message;
      report.pendingEmbeddings = missing.length - i - ready.length;
      store.storeVectors(ready);
      return;
    }
    store.storeVectors(ready);
    await yieldToLoop();
  }
}
