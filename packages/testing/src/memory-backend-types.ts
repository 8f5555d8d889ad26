import type { ConformanceOptions } from "./sessions-conformance.js";

// The MemoryBackend seam's shape as the conformance suite sees it (structural: no memory plugin dependency).

export interface ConformanceEmbedder {
  id: string;
  model: string;
  dims: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface ConformanceFingerprint {
  path: string;
  hash: string;
  mtime: number;
  size: number;
}

export interface ConformanceMemoryChanges {
  removed: string[];
  changed: Array<
    ConformanceFingerprint & {
      chunks: Array<{ text: string; startLine: number; endLine: number; hash: string }>;
    }
  >;
  touched: Array<Omit<ConformanceFingerprint, "hash">>;
}

export interface ConformanceMemoryHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  vectorScore: number;
  textScore: number;
  text: string;
}

/** The MemoryBackend interface of @clawtools/memory, as this suite drives it. */
export interface MemoryBackendUnderTest {
  files(): Promise<ReadonlyMap<string, ConformanceFingerprint>>;
  sync(
    changes: ConformanceMemoryChanges,
    signal?: AbortSignal,
  ): Promise<{ chunks: number; pendingEmbeddings: number }>;
  search(
    query: string,
    options: { maxResults?: number; minScore?: number; mode?: "hybrid" | "vector" | "keyword" },
  ): Promise<{ hits: ConformanceMemoryHit[]; mode: string }>;
  status(): Promise<{ chunks: number; files: number; vector: string }>;
  close(): Promise<void> | void;
}

export interface MemoryBackendUnderTestSetup {
  /** A fresh directory for this test (the same one again when reopening). */
  dir: string;
  embedder: ConformanceEmbedder;
}

export interface MemoryBackendConformanceOptions extends ConformanceOptions {
  /** A backend made again over the same `dir` keeps what was synced (default false). */
  persistent?: boolean;
  /** Makes the per-test directory (default: the caller's factory ignores `dir` and gets ""). */
  tempDir?: () => string;
}

/** Makes a backend for one test. */
export type Factory = (
  setup: MemoryBackendUnderTestSetup,
) => MemoryBackendUnderTest | Promise<MemoryBackendUnderTest>;
