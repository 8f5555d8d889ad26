import pg from "pg";
import { PgCronStore } from "./cron-store.js";
import { Db } from "./db.js";
import { StoreEvents } from "./events.js";
import { PgLeaderLease } from "./leader-lease.js";
import { Membership } from "./member.js";
import { checkSchemaName, migrate } from "./migrations.js";
import { PgRunRegistry } from "./run-registry.js";
import { PgSessionStore } from "./session-store.js";
import { PgTaskStore } from "./task-store.js";

export interface PostgresStoreOptions {
  /** `postgres://user[:password]@host:port/db`; or pass `pool`. */
  connectionString?: string;
  /** A pool the caller owns (not ended by `close`). */
  pool?: pg.Pool;
  /** The schema holding the tables (default `clawtools`); one database can host several. */
  schema?: string;
  /** How long a connection attempt may take before the store fails (default 5 s). */
  connectTimeoutMs?: number;
  /**
   * Pool size when the store makes the pool (default 4). Each store also keeps two connections
   * of its own: its liveness connection (member.ts) and, once something listens, a LISTEN one.
   */
  maxConnections?: number;
}

/** The pool a store makes holds at most this many connections unless told otherwise. */
export const DEFAULT_MAX_CONNECTIONS = 4;

/** Sessions, runs, cron and the leader lease on one database, and how to let go of them. */
export interface PostgresStore {
  sessions: PgSessionStore;
  runs: PgRunRegistry;
  cron: PgCronStore;
  lease: PgLeaderLease;
  /** MCP tasks (`serve`'s task host keeps them here with `--store`). */
  tasks: PgTaskStore;
  /** This process's liveness connection; `member.epoch` is its fencing token. */
  member: Membership;
  /** `postgres://user@host:port/db#schema`, password left out (for logs and `status`). */
  readonly location: string;
  close(): Promise<void>;
}

/** The connection string without its password, with the schema: what errors and `status` show. */
export function describeLocation(
  connectionString: string | undefined,
  config: pg.PoolConfig,
  schema: string,
): string {
  let base = "postgres (from PG* environment)";
  if (connectionString) {
    try {
      const url = new URL(connectionString);
      url.password = "";
      // pg also takes the password as a query parameter: never shown either
      url.searchParams.delete("password");
      base = url.toString();
    } catch {
      base = "postgres (unparsable connection string)";
    }
  } else if (config.host || config.database) {
    base = `postgres://${config.user ?? ""}@${config.host ?? ""}:${config.port ?? 5432}/${config.database ?? ""}`;
  }
  return `${base}#${schema}`;
}

/** Why opening failed, in one line; a server out of connection slots says what to change. */
function openFailure(error: unknown): string {
  const code = (error as { code?: string } | undefined)?.code;
  if (code === "53300")
    return "the database refuses more connections (too many clients already): lower the pool size (storeConnections in the config, --store-connections) or raise the server's max_connections";
  return error instanceof Error ? error.message || String(code) : String(error);
}

/**
 * Connects, checks the database answers, and brings the schema up to date; fails fast, with an
 * error naming the store and where it points, when the database cannot be reached.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const schema = checkSchemaName(options.schema ?? "clawtools");
  if (!options.pool && !options.connectionString)
    throw new Error("PostgreSQL store: give a connectionString (postgres://USER@HOST:PORT/DB) or a pool");
  const config: pg.PoolConfig = {
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
  };
  const pool = options.pool ?? new pg.Pool(config);
  const location = describeLocation(
    options.connectionString ?? options.pool?.options.connectionString,
    options.pool?.options ?? config,
    schema,
  );
  // an idle client's error (a restarted server) must not crash the process; the next query reconnects
  const onIdleError = () => {};
  if (!options.pool) pool.on("error", onIdleError);
  const ownPool = !options.pool;
  const member = new Membership({ ...(options.pool?.options ?? config) }, schema);
  try {
    const client = await pool.connect();
    try {
      await migrate(client, schema);
    } finally {
      client.release();
    }
    await member.open();
  } catch (error) {
    await member.close();
    if (ownPool) await pool.end().catch(() => {});
    throw new Error(`PostgreSQL store ${location}: cannot open it: ${openFailure(error)}`, { cause: error });
  }
  const db = new Db(pool, schema, member);
  const events = new StoreEvents({ ...(options.pool?.options ?? config) });
  return {
    sessions: new PgSessionStore(db),
    runs: new PgRunRegistry(db, events),
    cron: new PgCronStore(db, events, location),
    lease: new PgLeaderLease(db, events),
    tasks: new PgTaskStore(db),
    member,
    location,
    async close() {
      await events.close();
      await member.close();
      if (ownPool) await pool.end();
    },
  };
}
