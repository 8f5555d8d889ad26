import type { EmbeddingProvider } from "../embed/types.js";
import type { MmrOptions, TemporalDecayOptions } from "../indexer/post-process.js";
import { type SearchOptions, type SearchOutcome, searchIndex } from "../indexer/search.js";
import { applyToStore } from "../indexer/sync.js";
import { type IndexRecovery, isCorruptionError, moveAside } from "../store/database.js";
import { IndexStore } from "../store/index-store.js";
import {
  type BackendSyncResult,
  type FileFingerprint,
  type MemoryBackend,
  type MemoryBackendStatus,
  type MemoryChanges,
  MemoryIndexResetError,
} from "./types.js";
import { checkChanges, checkSearch } from "./validate.js";

export interface SqliteMemoryBackendOptions {
  /** SQLite file (created with its directory); `:memory:` for a throwaway index. */
  dbPath: string;
  embedder: EmbeddingProvider;
  /**
   * Nearest neighbours from sqlite-vec's `vec0` table (when installed) instead of the in-memory
   * quantized index. Default false: the quantized first pass with an exact re-rank is faster
   * (measured in tooling/bench's memory suite) and skips maintaining the extra table.
   */
  useSqliteVec?: boolean;
  /** Weights of the hybrid score (normalised to sum 1); default 0.7 / 0.3. */
  vectorWeight?: number;
  textWeight?: number;
  /** Default post-processing for searches (both off, as in OpenClaw). */
  temporalDecay?: TemporalDecayOptions;
  mmr?: MmrOptions;
  /** Told when a corrupt index file was moved aside (default: a process warning on stderr). */
  onRecovery?: (recovery: IndexRecovery) => void;
}

const defaultOnRecovery = (r: IndexRecovery) =>
  process.emitWarning(
    `memory index ${r.dbPath} was corrupt (${r.reason}); moved to ${r.movedTo}, rebuilding`,
    {
      code: "CLAWTOOLS_MEMORY_INDEX_REBUILT",
    },
  );

/**
 * The default backend: one SQLite file with FTS5 for keywords, stored vectors and an embedding
 * cache. The file is derived data: when SQLite finds it corrupt (on open or mid-call) it is moved
 * aside and replaced by an empty index, and the call throws MemoryIndexResetError so the caller
 * re-syncs from the memory files.
 */
export class SqliteMemoryBackend implements MemoryBackend {
  private store: IndexStore;
  private pendingRecovery: IndexRecovery | undefined;
  /** Calls run one at a time: a sync's writes never interleave another call. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly vectorWeight: number;
  private readonly textWeight: number;

  constructor(private readonly options: SqliteMemoryBackendOptions) {
    const vw = options.vectorWeight ?? 0.7;
    const tw = options.textWeight ?? 0.3;
    if (!(vw >= 0 && tw >= 0 && vw + tw > 0))
      throw new Error(`memory hybrid weights must be non-negative and not both 0 (got ${vw}, ${tw})`);
    this.vectorWeight = vw / (vw + tw);
    this.textWeight = tw / (vw + tw);
    this.store = this.openStore();
  }

  /** Opens the store; a file found corrupt while opening is moved aside once and replaced. */
  private openStore(retry = true): IndexStore {
    const { embedder, dbPath } = this.options;
    const store = new IndexStore(dbPath, embedder.dims, this.options.useSqliteVec ?? false);
    try {
      store.resetForModel(`${embedder.id}:${embedder.model}:${embedder.dims}`);
    } catch (error) {
      store.close();
      if (!retry || !isCorruptionError(error)) throw error;
      this.noteRecovery(moveAside(dbPath, (error as Error).message));
      return this.openStore(false);
    }
    if (store.recovered) this.noteRecovery(store.recovered);
    return store;
  }

  private noteRecovery(recovery: IndexRecovery): void {
    this.pendingRecovery = recovery;
    (this.options.onRecovery ?? defaultOnRecovery)(recovery);
  }

  /** Runs `op` alone; a corrupt store is moved aside, replaced, and reported as a reset. */
  private exclusive<T>(op: () => T | Promise<T>): Promise<T> {
    const guarded = async () => {
      try {
        return await op();
      } catch (error) {
        if (!isCorruptionError(error)) throw error;
        this.store.close();
        const recovery = moveAside(this.options.dbPath, (error as Error).message);
        this.noteRecovery(recovery);
        this.store = this.openStore();
        throw new MemoryIndexResetError(recovery);
      }
    };
    const run = this.queue.then(guarded, guarded);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Whether nearest neighbours come from sqlite-vec. */
  get vec(): boolean {
    return this.store.vec;
  }

  takeRecovery(): IndexRecovery | undefined {
    const recovery = this.pendingRecovery;
    this.pendingRecovery = undefined;
    return recovery;
  }

  files(): Promise<ReadonlyMap<string, FileFingerprint>> {
    return this.exclusive(() => this.store.files());
  }

  async sync(changes: MemoryChanges, signal?: AbortSignal): Promise<BackendSyncResult> {
    checkChanges(changes);
    return this.exclusive(() => applyToStore(this.store, changes, this.options.embedder, signal));
  }

  async search(query: string, options: SearchOptions): Promise<SearchOutcome> {
    checkSearch(query, options);
    const defaults = {
      vectorWeight: this.vectorWeight,
      textWeight: this.textWeight,
      temporalDecay: this.options.temporalDecay,
      mmr: this.options.mmr,
    };
    return this.exclusive(() => searchIndex(this.store, this.options.embedder, defaults, query, options));
  }

  status(): Promise<MemoryBackendStatus> {
    return this.exclusive(() => ({
      chunks: this.store.chunkCount(),
      files: this.store.files().size,
      vector: this.store.vec ? "sqlite-vec" : "quantized",
    }));
  }

  close(): void {
    this.store.close();
  }
}
