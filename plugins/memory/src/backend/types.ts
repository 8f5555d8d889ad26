import { ClawtoolsError } from "@clawtools/core";
import type { Chunk } from "../chunk.js";
import type { EmbeddingProvider } from "../embed/types.js";
import type { SearchOptions, SearchOutcome } from "../indexer/search.js";
import type { IndexRecovery } from "../store/database.js";

/** What a backend remembers of one memory file, to tell which files changed since. */
export interface FileFingerprint {
  /** Workspace-relative path with forward slashes (`memory/2026-01-02.md`); an extra path outside the workspace is absolute. */
  path: string;
  /** sha256 of the file's text. */
  hash: string;
  mtime: number;
  size: number;
}

/** A changed or new file: all of its chunks, which replace whatever the backend held for it. */
export interface ChangedFile extends FileFingerprint {
  chunks: Array<Chunk & { hash: string }>;
}

/** One sync's worth of changes, computed by the file walker against `files()`. */
export interface MemoryChanges {
  removed: string[];
  changed: ChangedFile[];
  /** Same content, new mtime/size: only the fingerprint changes. */
  touched: Array<Omit<FileFingerprint, "hash">>;
}

export interface BackendSyncResult {
  /** Chunks held after the sync. */
  chunks: number;
  /** Chunks still without a vector (the embedder failed); retried on the next sync. */
  pendingEmbeddings: number;
  embeddingError?: string;
}

export interface MemoryBackendStatus {
  chunks: number;
  files: number;
  /** How nearest neighbours are found, e.g. "quantized", "sqlite-vec", "pgvector". */
  vector: string;
}

/**
 * Where memory chunks live and how they are searched. The tools talk to this only: the file
 * walker (listing, reading, chunking) computes `MemoryChanges` against `files()` and hands them
 * to `sync`; `search` answers a query (the backend embeds it, or lets its server do so).
 * Calls may overlap; a backend serialises what must not interleave. Malformed changes or search
 * options are refused with an error naming the field before anything is written
 * (`checkMemoryChanges`, `checkMemorySearch`); @clawtools/testing's `memoryBackendConformance`
 * checks a backend against all of this.
 */
export interface MemoryBackend {
  files(): Promise<ReadonlyMap<string, FileFingerprint>>;
  sync(changes: MemoryChanges, signal?: AbortSignal): Promise<BackendSyncResult>;
  search(query: string, options: SearchOptions): Promise<SearchOutcome>;
  status(): Promise<MemoryBackendStatus>;
  /** A recovery (the store was found corrupt and replaced) not reported yet; forgets it. */
  takeRecovery?(): IndexRecovery | undefined;
  close(): Promise<void> | void;
}

/** What a backend factory is told about the agent and workspace it serves. */
export interface MemoryBackendContext {
  workspaceDir: string;
  agentId: string;
  /** The embedder chosen by configuration (a backend may ignore it and embed server-side). */
  embedder: EmbeddingProvider;
  /** The default SQLite path for this agent (a backend that keeps no file ignores it). */
  dbPath: string;
}

/** Makes the backend of one agent's workspace; called once per agent and workspace. */
export type MemoryBackendFactory = (context: MemoryBackendContext) => MemoryBackend | Promise<MemoryBackend>;

/**
 * Thrown by a backend that found its store unusable and replaced it with an empty one: the
 * caller syncs again from the files (`files()` is now empty) and retries the call.
 */
const RESET = Symbol.for("clawtools.error.MemoryIndexResetError");

export class MemoryIndexResetError extends ClawtoolsError {
  static override readonly marker: symbol = RESET;
  override readonly name = "MemoryIndexResetError";
  readonly [RESET] = true;
  override get code(): string {
    return "CLAWTOOLS_MEMORY_INDEX_RESET";
  }
  readonly recovery: IndexRecovery;
  constructor(recovery: IndexRecovery) {
    super(`memory index was reset: ${recovery.reason}`);
    this.recovery = recovery;
  }
}

/** True for a MemoryIndexResetError, even one made by another copy of this package. */
export function isMemoryIndexResetError(error: unknown): error is MemoryIndexResetError {
  return typeof error === "object" && error !== null && (error as { [RESET]?: unknown })[RESET] === true;
}
