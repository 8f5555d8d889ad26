import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type Chunk, type ChunkOptions, chunkMarkdown } from "../chunk.js";
import type { EmbeddingProvider } from "../embed/types.js";
import { type Db, fromBlob, openDatabase, toBlob } from "../store/database.js";
import { listMemoryFiles } from "./files.js";
import { applyTemporalDecay, type MmrOptions, mmrRerank, type TemporalDecayOptions } from "./post-process.js";

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
}

export interface SyncReport {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  chunks: number;
  /** Chunks still without a vector (the embedder failed); retried on the next sync. */
  pendingEmbeddings: number;
  embeddingError?: string;
}

export interface MemoryHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  vectorScore: number;
  textScore: number;
  text: string;
}

export interface SearchOutcome {
  hits: MemoryHit[];
  mode: "hybrid" | "vector" | "keyword";
  /** Set when vector search was unavailable and keyword search answered alone. */
  fallback?: { from: string; reason: string };
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** Builds an FTS5 query that matches any of the query's words (quoted, so syntax is inert). */
export function ftsQuery(query: string): string | undefined {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 32);
  return unique.length ? unique.map((w) => `"${w}"`).join(" OR ") : undefined;
}

/**
 * The persistent hybrid index of one agent's memory files: FTS5 for keywords, stored vectors
 * for similarity (sqlite-vec when installed, cosine in memory otherwise). Syncs incrementally:
 * unchanged files (size + mtime, then content hash) are skipped; deleted files leave.
 */
export class MemoryIndex {
  private readonly db: Db;
  readonly vec: boolean;
  private vectors: Map<number, Float32Array> | undefined;
  private readonly vectorWeight: number;
  private readonly textWeight: number;

  constructor(private readonly options: MemoryIndexOptions) {
    const opened = openDatabase(options.dbPath, options.embedder.dims, options.useSqliteVec ?? true);
    this.db = opened.db;
    this.vec = opened.vec;
    const vw = options.vectorWeight ?? 0.7;
    const tw = options.textWeight ?? 0.3;
    this.vectorWeight = vw / (vw + tw);
    this.textWeight = tw / (vw + tw);
    this.resetIfModelChanged();
  }

  private meta(key: string): string | undefined {
    return (this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)
      ?.value;
  }

  private resetIfModelChanged(): void {
    const model = `${this.options.embedder.id}:${this.options.embedder.model}:${this.options.embedder.dims}`;
    if (this.meta("model") === model) return;
    this.db.exec(
      "DELETE FROM chunks; DELETE FROM embeddings; DELETE FROM files; INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild');",
    );
    if (this.vec) {
      this.db.exec("DROP TABLE IF EXISTS chunks_vec");
      this.db.exec(
        `CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${this.options.embedder.dims}])`,
      );
    }
    this.db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('model', ?)").run(model);
    this.vectors = undefined;
  }

  private removeFile(path: string): void {
    const rows = this.db.prepare("SELECT id, text FROM chunks WHERE path = ?").all(path) as Array<{
      id: number;
      text: string;
    }>;
    const delFts = this.db.prepare("INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', ?, ?)");
    const delEmb = this.db.prepare("DELETE FROM embeddings WHERE chunk_id = ?");
    const delVec = this.vec ? this.db.prepare("DELETE FROM chunks_vec WHERE rowid = ?") : undefined;
    for (const row of rows) {
      delFts.run(row.id, row.text);
      delEmb.run(row.id);
      delVec?.run(BigInt(row.id));
      this.vectors?.delete(row.id);
    }
    this.db.prepare("DELETE FROM chunks WHERE path = ?").run(path);
    this.db.prepare("DELETE FROM files WHERE path = ?").run(path);
  }

  /** Brings the index up to date with the files on disk. */
  async sync(signal?: AbortSignal): Promise<SyncReport> {
    const report: SyncReport = {
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
      chunks: 0,
      pendingEmbeddings: 0,
    };
    const files = await listMemoryFiles(this.options.workspaceDir, this.options.extraPaths);
    const known = new Map(
      (
        this.db.prepare("SELECT path, hash, mtime, size FROM files").all() as Array<{
          path: string;
          hash: string;
          mtime: number;
          size: number;
        }>
      ).map((r) => [r.path, r]),
    );
    const changed: Array<{
      rel: string;
      text: string;
      hash: string;
      mtime: number;
      size: number;
      isNew: boolean;
    }> = [];
    for (const file of files) {
      const prior = known.get(file.rel);
      known.delete(file.rel);
      if (prior && prior.mtime === file.mtimeMs && prior.size === file.size) {
        report.unchanged++;
        continue;
      }
      const text = await readFile(file.abs, "utf8");
      const hash = sha(text);
      if (prior && prior.hash === hash) {
        this.db
          .prepare("UPDATE files SET mtime = ?, size = ? WHERE path = ?")
          .run(file.mtimeMs, file.size, file.rel);
        report.unchanged++;
        continue;
      }
      changed.push({ rel: file.rel, text, hash, mtime: file.mtimeMs, size: file.size, isNew: !prior });
    }
    signal?.throwIfAborted();
    const insertChunk = this.db.prepare(
      "INSERT INTO chunks(path, start_line, end_line, text, hash) VALUES (?, ?, ?, ?, ?)",
    );
    const insertFts = this.db.prepare("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)");
    const upsertFile = this.db.prepare(
      "INSERT OR REPLACE INTO files(path, hash, mtime, size) VALUES (?, ?, ?, ?)",
    );
    this.db.transaction(() => {
      for (const path of known.keys()) {
        this.removeFile(path);
        report.removed++;
      }
      for (const file of changed) {
        this.removeFile(file.rel);
        for (const chunk of chunkMarkdown(file.text, this.options.chunking)) {
          const id = Number(
            insertChunk.run(file.rel, chunk.startLine, chunk.endLine, chunk.text, sha(chunk.text))
              .lastInsertRowid,
          );
          insertFts.run(id, chunk.text);
        }
        upsertFile.run(file.rel, file.hash, file.mtime, file.size);
        if (file.isNew) report.added++;
        else report.updated++;
      }
    })();
    await this.embedMissing(report, signal);
    report.chunks = (this.db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
    return report;
  }

  /** Embeds chunks without a vector, reusing cached vectors of identical chunk texts. */
  private async embedMissing(report: SyncReport, signal?: AbortSignal): Promise<void> {
    const missing = this.db
      .prepare(
        "SELECT c.id, c.text, c.hash FROM chunks c LEFT JOIN embeddings e ON e.chunk_id = c.id WHERE e.chunk_id IS NULL",
      )
      .all() as Array<{ id: number; text: string; hash: string }>;
    if (missing.length === 0) return;
    const model = this.options.embedder.model;
    const cached = this.db.prepare("SELECT vector FROM embedding_cache WHERE hash = ? AND model = ?");
    const todo: typeof missing = [];
    const ready: Array<{ id: number; vector: Float32Array | number[] }> = [];
    for (const row of missing) {
      const hit = cached.get(row.hash, model) as { vector: Buffer } | undefined;
      if (hit) ready.push({ id: row.id, vector: fromBlob(hit.vector) });
      else todo.push(row);
    }
    const batch = 256;
    for (let i = 0; i < todo.length; i += batch) {
      const slice = todo.slice(i, i + batch);
      try {
        const vectors = await this.options.embedder.embed(
          slice.map((r) => r.text),
          signal,
        );
        for (const [k, row] of slice.entries()) ready.push({ id: row.id, vector: vectors[k]! });
        const cache = this.db.prepare(
          "INSERT OR REPLACE INTO embedding_cache(hash, model, vector) VALUES (?, ?, ?)",
        );
        this.db.transaction(() => {
          for (const [k, row] of slice.entries()) cache.run(row.hash, model, toBlob(vectors[k]!));
        })();
      } catch (error) {
        report.embeddingError = (error as Error).message;
        report.pendingEmbeddings = todo.length - i;
        break;
      }
    }
    const insert = this.db.prepare("INSERT OR REPLACE INTO embeddings(chunk_id, vector) VALUES (?, ?)");
    const insertVec = this.vec
      ? this.db.prepare("INSERT OR REPLACE INTO chunks_vec(rowid, embedding) VALUES (?, ?)")
      : undefined;
    this.db.transaction(() => {
      for (const { id, vector } of ready) {
        const blob = toBlob(vector);
        insert.run(id, blob);
        insertVec?.run(BigInt(id), blob);
        this.vectors?.set(id, fromBlob(blob));
      }
    })();
  }

  private loadVectors(): Map<number, Float32Array> {
    if (!this.vectors) {
      this.vectors = new Map();
      for (const row of this.db.prepare("SELECT chunk_id, vector FROM embeddings").iterate() as Iterable<{
        chunk_id: number;
        vector: Buffer;
      }>) {
        this.vectors.set(row.chunk_id, fromBlob(row.vector));
      }
    }
    return this.vectors;
  }

  /** Chunk ids by cosine similarity to the query vector, best first. */
  vectorCandidates(queryVector: number[], k: number): Array<{ id: number; score: number }> {
    if (this.vec) {
      const rows = this.db
        .prepare(
          "SELECT rowid AS id, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance",
        )
        .all(toBlob(queryVector), k) as Array<{ id: number | bigint; distance: number }>;
      // vectors are unit length: cosine = 1 - L2² / 2
      return rows.map((r) => ({ id: Number(r.id), score: 1 - (r.distance * r.distance) / 2 }));
    }
    const q = Float32Array.from(queryVector);
    const scored: Array<{ id: number; score: number }> = [];
    for (const [id, v] of this.loadVectors()) {
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i]! * q[i]!;
      scored.push({ id, score: dot });
    }
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, k);
  }

  /** Chunk ids by BM25 (best first) with OpenClaw's rank → score mapping 1 / (1 + rank). */
  keywordCandidates(query: string, k: number): Array<{ id: number; score: number }> {
    const match = ftsQuery(query);
    if (!match) return [];
    const rows = this.db
      .prepare(
        "SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?",
      )
      .all(match, k) as Array<{ id: number }>;
    return rows.map((r, rank) => ({ id: r.id, score: 1 / (1 + rank) }));
  }

  /** Hybrid search (vector 0.7 / keyword 0.3 by default); keyword only when embedding the query fails. */
  async search(
    query: string,
    options: {
      maxResults?: number;
      minScore?: number;
      mode?: "hybrid" | "vector" | "keyword";
      signal?: AbortSignal;
      /** Older daily notes (memory/YYYY-MM-DD.md) weigh less. */
      temporalDecay?: TemporalDecayOptions;
      /** Re-rank for diversity. */
      mmr?: MmrOptions;
      /** "Now" for the temporal decay (tests). */
      nowMs?: number;
    } = {},
  ): Promise<SearchOutcome> {
    const maxResults = options.maxResults ?? 6;
    const k = maxResults * 4;
    let mode = options.mode ?? "hybrid";
    let fallback: SearchOutcome["fallback"];
    let vector: Array<{ id: number; score: number }> = [];
    if (mode !== "keyword") {
      try {
        const [qv] = await this.options.embedder.embed([query], options.signal);
        vector = this.vectorCandidates(qv!, k);
      } catch (error) {
        fallback = { from: this.options.embedder.id, reason: (error as Error).message };
        mode = "keyword";
      }
    }
    const keyword = mode === "vector" ? [] : this.keywordCandidates(query, k);
    const merged = new Map<number, { v: number; t: number }>();
    for (const c of vector) merged.set(c.id, { v: Math.max(0, c.score), t: 0 });
    for (const c of keyword) merged.set(c.id, { v: merged.get(c.id)?.v ?? 0, t: c.score });
    const weight =
      mode === "hybrid"
        ? { v: this.vectorWeight, t: this.textWeight }
        : mode === "vector"
          ? { v: 1, t: 0 }
          : { v: 0, t: 1 };
    const get = this.db.prepare("SELECT path, start_line, end_line, text FROM chunks WHERE id = ?");
    const minScore = mode === "keyword" && fallback ? 0 : (options.minScore ?? 0);
    const hits: MemoryHit[] = [];
    for (const [id, s] of merged) {
      const score = weight.v * s.v + weight.t * s.t;
      const row = get.get(id) as
        | { path: string; start_line: number; end_line: number; text: string }
        | undefined;
      if (row)
        hits.push({
          path: row.path,
          startLine: row.start_line,
          endLine: row.end_line,
          score,
          vectorScore: s.v,
          textScore: s.t,
          text: row.text,
        });
    }
    // merge → temporal decay → threshold → sort → MMR → top K (OpenClaw's order)
    applyTemporalDecay(
      hits,
      options.temporalDecay ?? this.options.temporalDecay ?? { enabled: false },
      options.nowMs,
    );
    const kept = hits.filter((hit) => hit.score >= minScore);
    kept.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.startLine - b.startLine);
    const ranked = mmrRerank(kept, options.mmr ?? this.options.mmr ?? { enabled: false });
    return { hits: ranked.slice(0, maxResults), mode, ...(fallback ? { fallback } : {}) };
  }

  get chunkCount(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}

export type { Chunk };
