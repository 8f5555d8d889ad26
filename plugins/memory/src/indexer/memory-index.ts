import type { ChunkOptions } from "../chunk.js";
import type { EmbeddingProvider } from "../embed/types.js";
import { type IndexRecovery, isCorruptionError, moveAside } from "../store/database.js";
import { IndexStore } from "../store/index-store.js";
import type { MmrOptions, TemporalDecayOptions } from "./post-process.js";
import { type SearchOptions, type SearchOutcome, searchIndex } from "./search.js";
import { type SyncReport, syncIndex } from "./sync.js";

export interface MemoryIndexOptions {
  workspaceDir: string;
  /** SQLite file (created with its directory). */
  dbPath: string;
  embedder: EmbeddingProvider;
  extraPaths?: string[];
  chunking?: ChunkOptions;
  /** Weights of the hybrid score (normalised to sum 1); default 0.7 / 0.3. */
  vectorWeight?: number;
  textWeight?: number;
  /** Use sqlite-vec for nearest neighbours when installed (default true); false scans vectors in memory. */
  useSqliteVec?: boolean;
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
 * The persistent hybrid index of one agent's memory files: storage (IndexStore), sync
 * (syncIndex) and search (searchIndex) over one SQLite file. The file is derived data: when
 * SQLite finds it corrupt — on open or in the middle of a call — it is moved aside, rebuilt from
 * the memory files, and the call is answered.
 */
export class MemoryIndex {
  private store: IndexStore;
  private pendingRecovery: IndexRecovery | undefined;
  /** Syncs and searches run one at a time per index: a sync's writes never interleave another's. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly vectorWeight: number;
  private readonly textWeight: number;

  constructor(private readonly options: MemoryIndexOptions) {
    const vw = options.vectorWeight ?? 0.7;
    const tw = options.textWeight ?? 0.3;
    this.vectorWeight = vw / (vw + tw);
    this.textWeight = tw / (vw + tw);
    this.store = this.openStore();
  }

  /** Opens the store; a file found corrupt while opening is moved aside once and replaced. */
  private openStore(retry = true): IndexStore {
    const { embedder } = this.options;
    const store = new IndexStore(this.options.dbPath, embedder.dims, this.options.useSqliteVec ?? true);
    try {
      store.resetForModel(`${embedder.id}:${embedder.model}:${embedder.dims}`);
    } catch (error) {
      store.close();
      if (!retry || !isCorruptionError(error)) throw error;
      this.noteRecovery(moveAside(this.options.dbPath, (error as Error).message));
      return this.openStore(false);
    }
    if (store.recovered) this.noteRecovery(store.recovered);
    return store;
  }

  private noteRecovery(recovery: IndexRecovery): void {
    this.pendingRecovery = recovery;
    (this.options.onRecovery ?? defaultOnRecovery)(recovery);
  }

  /** The store was found corrupt mid-call: move the file aside and start a fresh one. */
  private heal(error: unknown): void {
    this.store.close();
    this.noteRecovery(moveAside(this.options.dbPath, (error as Error).message));
    this.store = this.openStore();
  }

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs `op`; on corruption heals once and runs it again. */
  private async healing<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if (!isCorruptionError(error)) throw error;
      this.heal(error);
      return op();
    }
  }

  /** Whether nearest neighbours come from sqlite-vec. */
  get vec(): boolean {
    return this.store.vec;
  }

  /** The last recovery not yet reported by a sync, and forgets it. */
  takeRecovery(): IndexRecovery | undefined {
    const recovery = this.pendingRecovery;
    this.pendingRecovery = undefined;
    return recovery;
  }

  private syncStore(signal?: AbortSignal): Promise<SyncReport> {
    return this.healing(() =>
      syncIndex(this.store, {
        workspaceDir: this.options.workspaceDir,
        extraPaths: this.options.extraPaths,
        embedder: this.options.embedder,
        chunking: this.options.chunking,
        signal,
      }),
    );
  }

  /** Brings the index up to date with the files on disk (`recovered` says when it was rebuilt). */
  async sync(signal?: AbortSignal): Promise<SyncReport> {
    const report = await this.exclusive(() => this.syncStore(signal));
    const recovered = this.takeRecovery();
    return recovered ? { ...report, recovered } : report;
  }

  /**
   * Hybrid search. When the index turns out corrupt it is rebuilt (synced) before answering;
   * `takeRecovery()` then says so.
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchOutcome> {
    const run = () =>
      searchIndex(
        this.store,
        this.options.embedder,
        {
          vectorWeight: this.vectorWeight,
          textWeight: this.textWeight,
          temporalDecay: this.options.temporalDecay,
          mmr: this.options.mmr,
        },
        query,
        options,
      );
    return this.exclusive(async () => {
      try {
        return await run();
      } catch (error) {
        if (!isCorruptionError(error)) throw error;
        this.heal(error);
        await this.syncStore(options.signal);
        return run();
      }
    });
  }

  get chunkCount(): number {
    return this.store.chunkCount();
  }

  close(): void {
    this.store.close();
  }
}
