import type { BackendSyncResult, ChangedFile, MemoryChanges } from "../backend/types.js";
import type { EmbeddingProvider } from "../embed/types.js";
import type { IndexRecovery } from "../store/database.js";
import type { IndexStore } from "../store/index-store.js";
import type { SkippedFile } from "./files.js";

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
  /** Set when the index was corrupt: it was moved aside and rebuilt. */
  recovered?: IndexRecovery;
}

const EMBED_BATCH = 256;
const CHUNKS_PER_WRITE = 500;

/** Lets other calls (I/O, timers) run between bounded slices of CPU work. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes one sync's changes into the SQLite store, in transactions of about CHUNKS_PER_WRITE
 * chunks with a yield to the event loop between, then embeds the chunks that lack a vector.
 */
export async function applyToStore(
  store: IndexStore,
  changes: MemoryChanges,
  embedder: EmbeddingProvider,
  signal?: AbortSignal,
): Promise<BackendSyncResult> {
  signal?.throwIfAborted();
  store.applyChanges(changes.removed, [], changes.touched);
  const { changed } = changes;
  for (let i = 0; i < changed.length; ) {
    const group: ChangedFile[] = [];
    let size = 0;
    while (
      i < changed.length &&
      (group.length === 0 || size + changed[i]!.chunks.length <= CHUNKS_PER_WRITE)
    ) {
      size += changed[i]!.chunks.length;
      group.push(changed[i++]!);
    }
    store.applyChanges([], group, []);
    await yieldToLoop();
  }
  const result: BackendSyncResult = { chunks: 0, pendingEmbeddings: 0 };
  await embedMissing(store, embedder, result, signal);
  result.chunks = store.chunkCount();
  return result;
}

/**
 * Embeds chunks without a vector, a batch at a time read in one statement (cached vectors of
 * identical texts first, unless the embedder computes faster than the cache answers), storing
 * each batch and yielding to the event loop between batches; a failing embedder leaves the rest
 * pending for the next sync.
 */
async function embedMissing(
  store: IndexStore,
  embedder: EmbeddingProvider,
  result: BackendSyncResult,
  signal?: AbortSignal,
): Promise<void> {
  const cacheModel = embedder.cache === false ? undefined : embedder.model;
  for (let after = -1; ; ) {
    signal?.throwIfAborted();
    const batch = store.withoutVector(after, EMBED_BATCH, cacheModel);
    if (batch.length === 0) return;
    after = batch[batch.length - 1]!.id;
    const ready: Array<{ id: number; vector: Float32Array | number[] }> = [];
    const todo: Array<{ id: number; hash: string; text: string }> = [];
    for (const row of batch) {
      if ("cached" in row) ready.push({ id: row.id, vector: row.cached });
      else todo.push(row);
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
        if (cacheModel !== undefined)
          store.cacheVectors(
            cacheModel,
            todo.map((row, k) => ({ hash: row.hash, vector: vectors[k]! })),
          );
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      result.embeddingError = (error as Error).message;
      store.storeVectors(ready);
      result.pendingEmbeddings = store.countWithoutVector();
      return;
    }
    store.storeVectors(ready);
    await yieldToLoop();
  }
}
