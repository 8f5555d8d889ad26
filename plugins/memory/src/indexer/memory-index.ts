import { SqliteMemoryBackend, type SqliteMemoryBackendOptions } from "../backend/sqlite.js";
import { isMemoryIndexResetError, type MemoryBackend, type MemoryBackendStatus } from "../backend/types.js";
import type { ChunkOptions } from "../chunk.js";
import type { IndexRecovery } from "../store/database.js";
import { collectChanges } from "./changes.js";
import type { SearchOptions, SearchOutcome } from "./search.js";
import type { SyncReport } from "./sync.js";

interface WalkerOptions {
  workspaceDir: string;
  extraPaths?: string[];
  chunking?: ChunkOptions;
}

/**
 * The walker's options, and either `backend` or the default SQLite backend's options (`dbPath`
 * and `embedder` at least). `closeBackend: false` leaves a given backend open on close.
 */
export interface MemoryIndexOptions extends WalkerOptions, Partial<SqliteMemoryBackendOptions> {
  backend?: MemoryBackend;
  closeBackend?: boolean;
}

/**
 * The memory of one agent's workspace: the file walker (list, read, chunk) on one side, a
 * MemoryBackend (storage, embeddings, search) on the other; SQLite unless one is given. When the
 * backend resets a corrupt store mid-call, the files are synced again and the call answered.
 */
export class MemoryIndex {
  readonly backend: MemoryBackend;
  private readonly walker: WalkerOptions;
  private readonly closeBackend: boolean;
  /** Syncs and searches run one at a time: two syncs never compute changes from the same state. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: MemoryIndexOptions) {
    this.walker = {
      workspaceDir: options.workspaceDir,
      ...(options.extraPaths ? { extraPaths: options.extraPaths } : {}),
      ...(options.chunking ? { chunking: options.chunking } : {}),
    };
    if (options.backend) {
      if (options.dbPath !== undefined || options.embedder !== undefined)
        throw new Error("MemoryIndex takes a backend or the SQLite options (dbPath, embedder), not both");
      this.backend = options.backend;
      this.closeBackend = options.closeBackend ?? true;
    } else {
      if (!options.dbPath || !options.embedder)
        throw new Error("MemoryIndex needs a backend, or a dbPath and an embedder for the SQLite one");
      this.backend = new SqliteMemoryBackend({
        ...options,
        dbPath: options.dbPath,
        embedder: options.embedder,
      });
      this.closeBackend = true;
    }
  }

  private exclusive<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs `op`; when the backend reset its store, (re-syncs from the files and) runs it once more. */
  private async resetting<T>(op: () => Promise<T>, resync: boolean, signal?: AbortSignal): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if (!isMemoryIndexResetError(error)) throw error;
      if (resync) await this.syncOnce(signal);
      return op();
    }
  }

  private async syncOnce(signal?: AbortSignal): Promise<SyncReport> {
    const known = await this.backend.files();
    const found = await collectChanges(known, { ...this.walker, signal });
    signal?.throwIfAborted();
    const result = await this.backend.sync(found.changes, signal);
    return {
      added: found.added,
      updated: found.changes.changed.length - found.added,
      removed: found.changes.removed.length,
      unchanged: found.unchanged,
      chunks: result.chunks,
      pendingEmbeddings: result.pendingEmbeddings,
      ...(result.embeddingError !== undefined ? { embeddingError: result.embeddingError } : {}),
      skipped: found.skipped,
    };
  }

  /** Brings the backend up to date with the files on disk (`recovered` says when it was rebuilt). */
  async sync(signal?: AbortSignal): Promise<SyncReport> {
    const report = await this.exclusive(() => this.resetting(() => this.syncOnce(signal), false, signal));
    const recovered = this.takeRecovery();
    return recovered ? { ...report, recovered } : report;
  }

  /** Hybrid search; a store found corrupt is rebuilt before answering (`takeRecovery()` says so). */
  search(query: string, options: SearchOptions = {}): Promise<SearchOutcome> {
    return this.exclusive(() =>
      this.resetting(() => this.backend.search(query, options), true, options.signal),
    );
  }

  status(): Promise<MemoryBackendStatus> {
    return this.backend.status();
  }

  /** The last recovery not yet reported, and forgets it. */
  takeRecovery(): IndexRecovery | undefined {
    return this.backend.takeRecovery?.();
  }

  /** Closes the backend (unless it was given with `closeBackend: false`). */
  close(): Promise<void> | void {
    if (this.closeBackend) return this.backend.close();
  }
}
