import type { Chunk } from "../chunk.js";
import { type Db, fromBlob, type IndexRecovery, openIndexDatabase, toBlob } from "./database.js";
import type { SqlStatement } from "./sqlite.js";
import { VectorIndex } from "./vector-index.js";

/** The meta key counting changes of the stored vectors (any connection's). */
const VECTORS_GENERATION = "vectors_generation";
/** Stored vectors read per statement when the in-memory index loads. */
const LOAD_PAGE = 4096;

export interface FileRecord {
  path: string;
  hash: string;
  mtime: number;
  size: number;
}

export interface ChunkRecord {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

/** A chunk without a vector: its text to embed, or the cached vector of the same text. */
export type PendingChunk = { id: number; hash: string } & ({ text: string } | { cached: Float32Array });

export interface FileUpdate extends FileRecord {
  chunks: Array<Chunk & { hash: string }>;
}

/** One candidate of a search, best first; `score` in 0..1. */
export interface Candidate {
  id: number;
  score: number;
}

/**
 * The storage of one index file: files, chunks, the FTS5 table, stored vectors (and the
 * sqlite-vec KNN table when installed) and the embedding cache. Only SQL lives here.
 */
export class IndexStore {
  readonly vec: boolean;
  /** Set when the file was found corrupt on open and replaced by an empty index. */
  readonly recovered: IndexRecovery | undefined;
  private readonly db: Db;
  /** Loaded on the first vector search when sqlite-vec is not used; kept current by writes. */
  private vectors: VectorIndex | undefined;
  /** The stored vectors' generation the in-memory index holds, and the data_version it was seen at. */
  private vectorsAt: { generation: number; dataVersion: number } | undefined;
  private readonly statements = new Map<string, SqlStatement>();
  /** Writes to the files table through this store (SQLite's data_version counts other connections'). */
  private fileWrites = 0;
  /** The files' modification times for ranking, and when they were read. */
  private fileTimesCache: { stamp: string; times: ReadonlyMap<string, number> } | undefined;

  constructor(
    readonly dbPath: string,
    private readonly dims: number,
    useSqliteVec = true,
  ) {
    const opened = openIndexDatabase(dbPath, dims, useSqliteVec);
    this.db = opened.db;
    this.vec = opened.vec;
    this.recovered = opened.recovered;
  }

  /** A prepared statement, prepared once per store. */
  private sql(text: string): SqlStatement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  meta(key: string): string | undefined {
    return (this.sql("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)
      ?.value;
  }

  private dataVersion(): number {
    return (this.sql("PRAGMA data_version").get() as { data_version: number }).data_version;
  }

  /** How many times the stored vectors were changed, by any connection (meta `vectors_generation`). */
  private vectorsGeneration(): number {
    return Number(this.meta(VECTORS_GENERATION) ?? 0);
  }

  /**
   * Counts a change of the stored vectors, inside the transaction that makes it, for the other
   * connections' in-memory indexes. This one's is kept (and updated by the caller) only when no
   * other connection changed the vectors since it was read.
   */
  private vectorsChanged(): void {
    const before = this.vectorsGeneration();
    this.sql(
      "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ).run(VECTORS_GENERATION, String(before + 1));
    if (this.vectorsAt?.generation === before) this.vectorsAt.generation = before + 1;
    else this.dropVectors();
  }

  /** A transaction that changes the stored vectors; when it fails, this connection's index is dropped. */
  private vectorTransaction(work: () => void): void {
    try {
      this.db.transaction(() => {
        this.vectorsChanged();
        work();
      });
    } catch (error) {
      this.dropVectors();
      throw error;
    }
  }

  private dropVectors(): void {
    this.vectors = undefined;
    this.vectorsAt = undefined;
  }

  /** Empties the index when the embedding model changed (vectors of two models do not mix). */
  resetForModel(model: string): void {
    if (this.meta("model") === model) return;
    this.fileWrites++;
    this.vectorTransaction(() =>
      this.db.exec(
        "DELETE FROM chunks; DELETE FROM embeddings; DELETE FROM files; INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild');",
      ),
    );
    if (this.vec) {
      this.db.exec("DROP TABLE IF EXISTS chunks_vec");
      this.db.exec(`CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${this.dims}])`);
    }
    this.sql("INSERT OR REPLACE INTO meta(key, value) VALUES ('model', ?)").run(model);
    this.dropVectors();
  }

  files(): Map<string, FileRecord> {
    const rows = this.sql("SELECT path, hash, mtime, size FROM files").all() as FileRecord[];
    return new Map(rows.map((r) => [r.path, r]));
  }

  /**
   * Each indexed file's modification time by path, for ranking (every search asks). Read again
   * only when the files table may have changed since: a write through this store, or a commit
   * by another connection (PRAGMA data_version); until then the same map is answered.
   */
  fileTimes(): ReadonlyMap<string, number> {
    const stamp = `${this.fileWrites}:${this.dataVersion()}`;
    if (this.fileTimesCache?.stamp !== stamp) {
      const rows = this.sql("SELECT path, mtime FROM files").all() as Array<{ path: string; mtime: number }>;
      this.fileTimesCache = { stamp, times: new Map(rows.map((r) => [r.path, r.mtime])) };
    }
    return this.fileTimesCache.times;
  }

  private removeFile(path: string): void {
    const rows = this.sql("SELECT id, text FROM chunks WHERE path = ?").all(path) as Array<{
      id: number;
      text: string;
    }>;
    const delFts = this.sql("INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', ?, ?)");
    const delEmb = this.sql("DELETE FROM embeddings WHERE chunk_id = ?");
    const delVec = this.vec ? this.sql("DELETE FROM chunks_vec WHERE rowid = ?") : undefined;
    for (const row of rows) {
      delFts.run(row.id, row.text);
      delEmb.run(row.id);
      delVec?.run(BigInt(row.id));
      this.vectors?.delete(row.id);
    }
    this.sql("DELETE FROM chunks WHERE path = ?").run(path);
    this.sql("DELETE FROM files WHERE path = ?").run(path);
  }

  /**
   * Removes files, replaces the chunks of changed ones and updates the size/mtime of touched
   * ones (same content), in one transaction.
   */
  applyChanges(
    removed: Iterable<string>,
    changed: FileUpdate[],
    touched: Array<Omit<FileRecord, "hash">> = [],
  ): void {
    const touch = this.sql("UPDATE files SET mtime = ?, size = ? WHERE path = ?");
    const insertChunk = this.sql(
      "INSERT INTO chunks(path, start_line, end_line, text, hash) VALUES (?, ?, ?, ?, ?)",
    );
    const insertFts = this.sql("INSERT INTO chunks_fts(rowid, text) VALUES (?, ?)");
    const upsertFile = this.sql("INSERT OR REPLACE INTO files(path, hash, mtime, size) VALUES (?, ?, ?, ?)");
    this.fileWrites++;
    const gone = [...removed];
    // removed and changed files lose their chunks' vectors; a touch keeps them
    const transaction =
      gone.length > 0 || changed.length > 0
        ? (work: () => void) => this.vectorTransaction(work)
        : (work: () => void) => this.db.transaction(work);
    transaction(() => {
      for (const file of touched) touch.run(file.mtime, file.size, file.path);
      for (const path of gone) this.removeFile(path);
      for (const file of changed) {
        this.removeFile(file.path);
        for (const chunk of file.chunks) {
          const id = Number(
            insertChunk.run(file.path, chunk.startLine, chunk.endLine, chunk.text, chunk.hash)
              .lastInsertRowid,
          );
          insertFts.run(id, chunk.text);
        }
        upsertFile.run(file.path, file.hash, file.mtime, file.size);
      }
    });
  }

  /** How many chunks have no vector yet. */
  countWithoutVector(): number {
    return (
      this.sql(
        "SELECT count(*) AS n FROM chunks c LEFT JOIN embeddings e ON e.chunk_id = c.id WHERE e.chunk_id IS NULL",
      ).get() as { n: number }
    ).n;
  }

  /**
   * Up to `limit` chunks without a vector with ids above `after`, in id order, read in one
   * statement: with `model`, a vector the embedding cache holds for the same text comes along
   * (and the text only when there is none).
   */
  withoutVector(after: number, limit: number, model?: string): PendingChunk[] {
    const rows = (
      model === undefined
        ? this.sql(
            "SELECT c.id, c.hash, c.text FROM chunks c LEFT JOIN embeddings e ON e.chunk_id = c.id " +
              "WHERE e.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?",
          ).all(after, limit)
        : this.sql(
            "SELECT c.id, c.hash, ec.vector AS cached, CASE WHEN ec.vector IS NULL THEN c.text END AS text " +
              "FROM chunks c LEFT JOIN embeddings e ON e.chunk_id = c.id " +
              "LEFT JOIN embedding_cache ec ON ec.hash = c.hash AND ec.model = ? " +
              "WHERE e.chunk_id IS NULL AND c.id > ? ORDER BY c.id LIMIT ?",
          ).all(model, after, limit)
    ) as Array<{ id: number; hash: string; text: string | null; cached?: Uint8Array | null }>;
    return rows.map((r) =>
      r.cached
        ? { id: r.id, hash: r.hash, cached: fromBlob(r.cached) }
        : { id: r.id, hash: r.hash, text: r.text ?? "" },
    );
  }

  cacheVectors(model: string, rows: Array<{ hash: string; vector: number[] | Float32Array }>): void {
    const cache = this.sql("INSERT OR REPLACE INTO embedding_cache(hash, model, vector) VALUES (?, ?, ?)");
    this.db.transaction(() => {
      for (const row of rows) cache.run(row.hash, model, toBlob(row.vector));
    });
  }

  storeVectors(rows: Array<{ id: number; vector: number[] | Float32Array }>): void {
    // nothing to store (a batch whose embedder failed): no change for other connections to read
    if (rows.length === 0) return;
    const insert = this.sql("INSERT OR REPLACE INTO embeddings(chunk_id, vector) VALUES (?, ?)");
    const insertVec = this.vec
      ? this.sql("INSERT OR REPLACE INTO chunks_vec(rowid, embedding) VALUES (?, ?)")
      : undefined;
    this.vectorTransaction(() => {
      for (const { id, vector } of rows) {
        const blob = toBlob(vector);
        insert.run(id, blob);
        insertVec?.run(BigInt(id), blob);
        this.vectors?.set(id, vector);
      }
    });
  }

  /**
   * The in-memory index, loaded on first use from the stored vectors: pages of LOAD_PAGE rows
   * in id order, the event loop free between pages (50,000 vectors take about a second of CPU).
   * Read again when another connection changed the stored vectors since (a serve beside this
   * one indexed a note): a commit by another connection moves SQLite's data_version, and one
   * that changed vectors moves their generation.
   */
  private async loadVectors(): Promise<VectorIndex> {
    if (this.vectors && this.vectorsAt) {
      const dataVersion = this.dataVersion();
      if (dataVersion === this.vectorsAt.dataVersion) return this.vectors;
      if (this.vectorsGeneration() === this.vectorsAt.generation) {
        this.vectorsAt.dataVersion = dataVersion;
        return this.vectors;
      }
      this.dropVectors();
    }
    // read before the pages: a change committed while they load is seen by the next search
    const seen = { generation: this.vectorsGeneration(), dataVersion: this.dataVersion() };
    const vectors = new VectorIndex(this.dims);
    vectors.reserve((this.sql("SELECT count(*) AS n FROM embeddings").get() as { n: number }).n);
    const page = this.sql(
      "SELECT chunk_id, vector FROM embeddings WHERE chunk_id > ? ORDER BY chunk_id LIMIT ?",
    );
    for (let after = -1; ; ) {
      const rows = page.all(after, LOAD_PAGE) as Array<{ chunk_id: number; vector: Uint8Array }>;
      for (const { chunk_id, vector: b } of rows) {
        // the index copies the floats: a view of the row's bytes will do when it is aligned
        vectors.set(
          chunk_id,
          b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4) : fromBlob(b),
        );
      }
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.chunk_id;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    // calls on one store run one at a time (the backend's queue): no write came in meanwhile
    this.vectors = vectors;
    this.vectorsAt = seen;
    return vectors;
  }

  /**
   * Chunk ids by cosine similarity to the (unit-length) query vector, best first: sqlite-vec's
   * KNN when enabled, else the in-memory quantized index (first pass) with an exact re-rank.
   */
  async vectorCandidates(queryVector: number[], k: number): Promise<Candidate[]> {
    if (this.vec) {
      const rows = this.sql(
        "SELECT rowid AS id, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance",
      ).all(toBlob(queryVector), k) as Array<{ id: number | bigint; distance: number }>;
      // vectors are unit length: cosine = 1 - L2² / 2
      return rows.map((r) => ({ id: Number(r.id), score: 1 - (r.distance * r.distance) / 2 }));
    }
    return (await this.loadVectors()).search(queryVector, k);
  }

  /** Chunk ids matching an FTS5 query, by BM25, with OpenClaw's rank → score mapping 1 / (1 + rank). */
  keywordCandidates(match: string, k: number): Candidate[] {
    const rows = this.sql(
      "SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts) LIMIT ?",
    ).all(match, k) as Array<{ id: number }>;
    return rows.map((r, rank) => ({ id: r.id, score: 1 / (1 + rank) }));
  }

  chunk(id: number): ChunkRecord | undefined {
    const row = this.sql("SELECT path, start_line, end_line, text FROM chunks WHERE id = ?").get(id) as
      | { path: string; start_line: number; end_line: number; text: string }
      | undefined;
    return row && { path: row.path, startLine: row.start_line, endLine: row.end_line, text: row.text };
  }

  /** The rows of `ids` (those that exist) in one statement. */
  chunks(ids: number[]): Map<number, ChunkRecord> {
    const rows = this.sql(
      "SELECT id, path, start_line, end_line, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))",
    ).all(JSON.stringify(ids)) as Array<{
      id: number;
      path: string;
      start_line: number;
      end_line: number;
      text: string;
    }>;
    return new Map(
      rows.map((r) => [r.id, { path: r.path, startLine: r.start_line, endLine: r.end_line, text: r.text }]),
    );
  }

  /** Up to `limit` chunk ids of the files in `paths`, in file and line order. */
  chunksOf(paths: string[], limit: number): number[] {
    if (paths.length === 0) return [];
    const rows = this.sql(
      "SELECT id FROM chunks WHERE path IN (SELECT value FROM json_each(?)) ORDER BY path, start_line LIMIT ?",
    ).all(JSON.stringify(paths), limit) as Array<{ id: number }>;
    return rows.map((r) => Number(r.id));
  }

  chunkCount(): number {
    return (this.sql("SELECT count(*) AS n FROM chunks").get() as { n: number }).n;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
