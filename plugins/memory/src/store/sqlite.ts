import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

/**
 * The SQLite the index runs on. Node's own `node:sqlite` where the runtime has it (22.13 and
 * later, every Node 24): no native addon to build, and none of the teardown aborts that
 * better-sqlite3 12 (a raw `node::ObjectWrap`) hits on Node 24.19+. better-sqlite3, an optional
 * dependency, is the fallback for Node 20, which has no `node:sqlite`.
 */
export type SqliteDriver = "node:sqlite" | "better-sqlite3";

export type SqlValue = null | number | bigint | string | Uint8Array;

export interface SqlStatement {
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: SqlValue[]): Iterable<unknown>;
}

export interface SqlDatabase {
  readonly driver: SqliteDriver;
  readonly isOpen: boolean;
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  /** Runs `fn` in a transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;
  /** Loads a SQLite extension (a shared library path), then refuses any further loading. */
  loadExtension(file: string): void;
  close(): void;
}

/** The part of `node:sqlite` used here (Node 20's type definitions do not have the module). */
interface NodeSqlite {
  DatabaseSync: new (
    file: string,
    options?: { allowExtension?: boolean },
  ) => {
    readonly isOpen: boolean;
    prepare(sql: string): SqlStatement;
    exec(sql: string): void;
    loadExtension(file: string): void;
    enableLoadExtension(allow: boolean): void;
    close(): void;
  };
}

const require = createRequire(import.meta.url);

/** `node:sqlite` when the runtime has it unflagged; undefined on Node 20 and early 22. */
function nodeSqlite(): NodeSqlite | undefined {
  try {
    return process.getBuiltinModule?.("node:sqlite") as NodeSqlite | undefined;
  } catch {
    return undefined;
  }
}

/** The driver `openSqlite` would use on this runtime, or undefined when there is none. */
export function sqliteDriver(): SqliteDriver | undefined {
  if (nodeSqlite()) return "node:sqlite";
  try {
    require.resolve("better-sqlite3");
    return "better-sqlite3";
  } catch {
    return undefined;
  }
}

/** Opens (creating) a database file, or `:memory:`, on the runtime's SQLite. */
export function openSqlite(file: string): SqlDatabase {
  const builtin = nodeSqlite();
  if (builtin) return fromNodeSqlite(new builtin.DatabaseSync(file, { allowExtension: true }));
  let Database: typeof BetterSqlite3;
  try {
    Database = require("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    throw new Error(
      `memory needs SQLite: Node ${process.version} has no node:sqlite (Node 22.13 and later do), ` +
        `and the optional dependency better-sqlite3 could not be loaded (${(error as Error).message}). ` +
        "Install it (npm install better-sqlite3@12) or run on Node 22.13 or later.",
    );
  }
  return fromBetterSqlite3(new Database(file));
}

function fromNodeSqlite(db: InstanceType<NodeSqlite["DatabaseSync"]>): SqlDatabase {
  let depth = 0;
  return {
    driver: "node:sqlite",
    get isOpen() {
      return db.isOpen;
    },
    prepare: (sql) => db.prepare(sql),
    exec: (sql) => db.exec(sql),
    transaction(fn) {
      // nested calls become savepoints, as better-sqlite3's transactions do
      const savepoint = `nested_${depth}`;
      db.exec(depth === 0 ? "BEGIN" : `SAVEPOINT ${savepoint}`);
      depth++;
      try {
        const result = fn();
        depth--;
        db.exec(depth === 0 ? "COMMIT" : `RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        depth--;
        db.exec(depth === 0 ? "ROLLBACK" : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        throw error;
      }
    },
    loadExtension(file) {
      // allowExtension also enables SQL's load_extension(): close it again once loaded
      try {
        db.loadExtension(file);
      } finally {
        db.enableLoadExtension(false);
      }
    },
    close: () => db.close(),
  };
}

function fromBetterSqlite3(db: BetterSqlite3.Database): SqlDatabase {
  return {
    driver: "better-sqlite3",
    get isOpen() {
      return db.open;
    },
    prepare: (sql) => db.prepare(sql) as unknown as SqlStatement,
    exec: (sql) => void db.exec(sql),
    transaction: (fn) => db.transaction(fn)(),
    loadExtension: (file) => void db.loadExtension(file),
    close: () => void db.close(),
  };
}

/**
 * SQLite's primary result code of an error from either driver (`SQLITE_CORRUPT` = 11,
 * `SQLITE_NOTADB` = 26), with the message SQLite gave.
 */
export function sqliteErrorCode(error: unknown): { code: number; message: string } | undefined {
  if (!error || typeof error !== "object") return undefined;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "";
  // node:sqlite: ERR_SQLITE_ERROR with the (extended) numeric code
  if (typeof errcode === "number") return { code: errcode & 0xff, message: text };
  // better-sqlite3: the code's name
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    const name = code.split("_")[1] ?? "";
    return { code: PRIMARY_CODES[name] ?? -1, message: text };
  }
  return undefined;
}

const PRIMARY_CODES: Record<string, number> = { ERROR: 1, CORRUPT: 11, NOTADB: 26 };
