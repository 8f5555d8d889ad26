import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { openSqlite, type SqlDatabase, sqliteErrorCode } from "./sqlite.js";

export type Db = SqlDatabase;

const require = createRequire(import.meta.url);

/** A corrupt index file that was moved aside and replaced by an empty one. */
export interface IndexRecovery {
  /** The index file. */
  dbPath: string;
  /** Where the corrupt file went. */
  movedTo: string;
  /** What SQLite said about it. */
  reason: string;
}

/** Is this SQLite's way of saying the file is not a (healthy) database? */
export function isCorruptionError(error: unknown): boolean {
  const sqlite = sqliteErrorCode(error);
  if (!sqlite) return false;
  if (sqlite.code === 11 || sqlite.code === 26) return true; // SQLITE_CORRUPT, SQLITE_NOTADB
  // extensions (FTS5, sqlite-vec) may report a damaged page under a generic code
  return /malformed|not a database/i.test(sqlite.message);
}

class CorruptIndex extends Error {
  readonly code = "SQLITE_CORRUPT";
}

const MAGIC = "SQLite format 3\0";

/**
 * What the 100-byte header says is wrong with an index file, read without SQLite: a foreign
 * header, or a file shorter than the page count its header records (a truncated copy; SQLite
 * itself would only notice when a query reaches a missing page).
 */
export function headerProblem(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined; // missing: a new index
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return undefined;
    const header = Buffer.alloc(100);
    const got = readSync(fd, header, 0, 100, 0);
    if (got < 100 || header.toString("latin1", 0, 16) !== MAGIC) return "file is not a database";
    const raw = header.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    const pages = header.readUInt32BE(28);
    // the in-header size is only valid when the change counter matches version-valid-for
    const valid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
    if (valid && size < pages * pageSize) return `file is truncated (${size} of ${pages * pageSize} bytes)`;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function createSchema(db: Db): void {
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
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
}

function loadVec(db: Db, dims: number): boolean {
  try {
    // optional dependency: nearest-neighbour search inside SQLite when present
    const sqliteVec = require("sqlite-vec") as { getLoadablePath(): string };
    db.loadExtension(sqliteVec.getLoadablePath());
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vec USING vec0(embedding float[${dims}])`);
  } catch (error) {
    if (isCorruptionError(error)) throw error;
    return false;
  }
  // a run without sqlite-vec may have changed the vectors: refill the KNN table if it drifted
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  if (count("SELECT count(*) AS n FROM chunks_vec") !== count("SELECT count(*) AS n FROM embeddings")) {
    db.exec("DELETE FROM chunks_vec");
    const insert = db.prepare("INSERT INTO chunks_vec(rowid, embedding) VALUES (?, ?)");
    // pages, not one iterator: a connection cannot write while one of its reads is open
    const page = db.prepare(
      "SELECT chunk_id, vector FROM embeddings WHERE chunk_id > ? ORDER BY chunk_id LIMIT 1000",
    );
    db.transaction(() => {
      for (let after = -1; ; ) {
        const rows = page.all(after) as Array<{ chunk_id: number; vector: Uint8Array }>;
        if (rows.length === 0) break;
        for (const row of rows) insert.run(BigInt(row.chunk_id), row.vector);
        after = rows[rows.length - 1]!.chunk_id;
      }
    });
  }
  return true;
}

/** Opens (creating) the index database and its tables; loads sqlite-vec when it is installed. */
export function openDatabase(file: string, dims: number, useVec = true): { db: Db; vec: boolean } {
  if (file !== ":memory:") {
    mkdirSync(path.dirname(file), { recursive: true });
    const problem = headerProblem(file);
    if (problem) throw new CorruptIndex(problem);
  }
  const db = openSqlite(file);
  try {
    createSchema(db);
    return { db, vec: useVec ? loadVec(db, dims) : false };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Moves a corrupt index file (and its WAL and shared-memory files) aside as
 * `<file>.corrupt-<time>`; the index is derived data, rebuilt from the memory files.
 */
export function moveAside(file: string, reason: string): IndexRecovery {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const movedTo = `${file}.corrupt-${stamp}`;
  renameSync(file, movedTo);
  for (const suffix of ["-wal", "-shm"]) {
    if (!existsSync(file + suffix)) continue;
    try {
      renameSync(file + suffix, movedTo + suffix);
    } catch {
      rmSync(file + suffix, { force: true });
    }
  }
  return { dbPath: file, movedTo, reason };
}

/**
 * Opens the index, healing it when SQLite finds the file corrupt (a bad header, random bytes,
 * a truncated file): the file is moved aside and a fresh index is created in its place.
 */
export function openIndexDatabase(
  file: string,
  dims: number,
  useVec = true,
): { db: Db; vec: boolean; recovered?: IndexRecovery } {
  try {
    return openDatabase(file, dims, useVec);
  } catch (error) {
    if (file === ":memory:" || !isCorruptionError(error)) throw error;
    const recovered = moveAside(file, (error as Error).message);
    return { ...openDatabase(file, dims, useVec), recovered };
  }
}

export const toBlob = (v: number[] | Float32Array) => Buffer.from(new Float32Array(v).buffer);
export const fromBlob = (b: Uint8Array) => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4).slice();
