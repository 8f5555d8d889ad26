import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

/** Opens (creating) the index database and its tables; loads sqlite-vec when it is installed. */
export function openDatabase(file: string, dims: number, useVec = true): { db: Db; vec: boolean } {
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, hash TEXT NOT NULL, mtime REAL NOT NULL, size INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS chunks (
      id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
      text TEXT NOT NULL, hash TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
    CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, content='chunks', content_rowid='id', tokenize='unicode61');
    CREATE TABLE IF NOT EXISTS embeddings (chunk_id INTEGER PRIMARY KEY, vector BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS embedding_cache (hash TEXT NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (hash, model));
  `);
  let vec = false;
  if (useVec) {
    try {
      // optional dependency: nearest-neighbour search inside SQLite when present
      const sqliteVec = createRequire(import.meta.url)("sqlite-vec") as { load(db: Db): void };
      sqliteVec.load(db);
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vec USING vec0(embedding float[${dims}])`);
      vec = true;
    } catch {
      vec = false;
    }
  }
  if (vec) {
    // a run without sqlite-vec may have changed the vectors: refill the KNN table if it drifted
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    if (count("SELECT count(*) AS n FROM chunks_vec") !== count("SELECT count(*) AS n FROM embeddings")) {
      db.exec("DELETE FROM chunks_vec");
      const insert = db.prepare("INSERT INTO chunks_vec(rowid, embedding) VALUES (?, ?)");
      db.transaction(() => {
        for (const row of db.prepare("SELECT chunk_id, vector FROM embeddings").iterate() as Iterable<{
          chunk_id: number;
          vector: Buffer;
        }>) {
          insert.run(BigInt(row.chunk_id), row.vector);
        }
      })();
    }
  }
  return { db, vec };
}

export const toBlob = (v: number[] | Float32Array) => Buffer.from(new Float32Array(v).buffer);
export const fromBlob = (b: Buffer) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice();
