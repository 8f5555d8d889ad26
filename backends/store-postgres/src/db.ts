import type { Pool, PoolClient, QueryResultRow } from "pg";
import { liveEpochsSql, type Membership, selfLiveSql } from "./member.js";

/** The channel every store of every schema notifies on; the payload names the schema. */
export const NOTIFY_CHANNEL = "clawtools_store";

export interface StoreEvent {
  schema: string;
  /** "claim": a cron claim took due jobs (`id` its owner, `at` the next due time it left). */
  kind: "run" | "cron" | "lease" | "claim";
  id: string;
  /** A cron job's next due time after the change (null: none); absent when not known. */
  at?: number | null;
}

/**
 * A pool, the schema its tables live in (`t("runs")` is the qualified table name), and this
 * process's membership: `epoch` is its fencing token, `live` the subquery of live epochs.
 */
export class Db {
  readonly live: string;

  constructor(
    readonly pool: Pool,
    readonly schema: string,
    readonly member: Membership,
  ) {
    this.live = liveEpochsSql(member.lockClass);
  }

  /** Whether the epoch in SQL parameter `param` (this process's own) is alive: one lock lookup. */
  selfLive(param: string): string {
    return selfLiveSql(this.member.lockClass, param);
  }

  get epoch(): number {
    return this.member.epoch;
  }

  t(table: string): string {
    return `${this.schema}.${table}`;
  }

  async query<R extends QueryResultRow = QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(sql, params)).rows;
  }

  /**
   * `query` as a named prepared statement: parsed and planned once per connection, not per call
   * (for the per-operation paths: an append, a page, a release). The name carries the schema,
   * since a pool the caller owns may serve several.
   */
  async prepared<R extends QueryResultRow = QueryResultRow>(
    name: string,
    sql: string,
    params: unknown[],
    client: Pick<PoolClient, "query"> = this.pool,
  ): Promise<R[]> {
    return (await this.run<R>(name, sql, params, client)).rows;
  }

  /**
   * `prepared` for a statement that returns no rows (no `RETURNING`): how many rows it changed.
   * The server then answers with no row description and no row for the client to read.
   */
  async preparedCount(name: string, sql: string, params: unknown[]): Promise<number> {
    return (await this.run(name, sql, params, this.pool)).rowCount ?? 0;
  }

  private run<R extends QueryResultRow>(
    name: string,
    sql: string,
    params: unknown[],
    client: Pick<PoolClient, "query">,
  ) {
    return client.query<R>({ name: `${this.schema}.${name}`, text: sql, values: params });
  }

  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  async tx<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** Tells every listening process (LISTEN/NOTIFY) that a row changed; sent on commit when inside a transaction. */
  async notify(
    client: PoolClient | Pool,
    kind: StoreEvent["kind"],
    id: string,
    at?: number | null,
  ): Promise<void> {
    await client.query("SELECT pg_notify($1, $2)", [NOTIFY_CHANNEL, this.notice(kind, id, at)]);
  }

  /**
   * The payload of a notice, for statements that send it themselves (`SELECT pg_notify(…) FROM
   * changed`: the change and its notice in one round trip, the notice only when a row changed).
   */
  notice(kind: StoreEvent["kind"], id: string, at?: number | null): string {
    const payload: StoreEvent = { schema: this.schema, kind, id, ...(at !== undefined ? { at } : {}) };
    return JSON.stringify(payload);
  }
}

/**
 * A select-list item that commits the statement's transaction without waiting for the WAL flush
 * (`synchronous_commit = off` for it alone): the write is atomic and survives any client's crash,
 * and only a crash of the database server itself may lose the last few hundred milliseconds of
 * such writes, the durability of the embedded stores (which do not fsync transcripts or releases).
 * Used where the embedded stores do not fsync either: transcript appends, and cron releases (a
 * lost release is restored from the run's log line, which is written durably first).
 */
export const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true) AS async_commit";

/**
 * The same, as a condition that always holds (for a `WHERE` of a statement that returns no rows):
 * evaluated for the row it lets through, so a statement that writes has set it before it commits.
 */
export const ASYNC_COMMIT_WHERE = "set_config('synchronous_commit', 'off', true) IS NOT NULL";

/** `JSON.parse` of a stored row, naming the row when the text is not JSON. */
export function parseRow<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`PostgreSQL store: ${what} is not valid JSON`);
  }
}

/** Drops the keys whose value is undefined (a patch's way of removing a field). */
export function withoutUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out as T;
}

/**
 * A time or count for a `bigint` column: finite numbers rounded with `round` (PostgreSQL refuses
 * `1.5` as a bigint), anything else null.
 */
export function millis(value: unknown, round: (n: number) => number = Math.floor): number | null {
  return typeof value === "number" && Number.isFinite(value) ? round(value) : null;
}

/** A caller's time or duration, refused with a clear error unless it is a finite number. */
export function finite(what: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new Error(`PostgreSQL store: ${what} must be a finite number (got ${String(value)})`);
  return Math.floor(value);
}

/**
 * Whether any of `values` holds a NUL byte: PostgreSQL's text cannot store one, so no row can have
 * such a key, and a lookup by it answers as for an unknown key instead of sending it to the server
 * (which refuses it with an encoding error).
 */
export function hasNul(...values: unknown[]): boolean {
  return values.some((v) => typeof v === "string" && v.includes("\0"));
}
