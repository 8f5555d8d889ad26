import { backgroundClock } from "@clawtools/core/time";
import pg from "pg";

/**
 * The advisory-lock class of a schema's members: a positive 31-bit hash of its name, so two
 * schemas on one database (or another application's locks) do not mistake each other's members.
 */
export function memberLockClass(schema: string): number {
  let h = 0x811c9dc5;
  for (const ch of `clawtools-member:${schema}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h & 0x7fffffff;
}

/**
 * The epochs whose holder is alive: the session-level advisory locks `(class, epoch)` granted on
 * this database, in the holder's exclusive mode (a `selfLiveSql` check may hold a dead epoch's
 * lock shared for the length of its statement). A SQL subquery (no parameter: the class is a
 * number this package computes). It reads the whole lock table: for other processes' epochs.
 */
export function liveEpochsSql(lockClass: number): string {
  return `(SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND classid = ${lockClass}::oid
    AND objsubid = 2 AND mode = 'ExclusiveLock' AND granted
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
}

/**
 * Whether the epoch in `param` is alive, as one lookup in the lock table (not a read of all of it,
 * as `liveEpochsSql`): its holder keeps the lock exclusive, so a shared try fails exactly while it
 * lives. When it succeeds (the holder is gone) the statement's transaction holds it shared until
 * it ends, which nobody waits on: an epoch is never taken again. An uncorrelated subquery, so it
 * is asked once per statement. For this process's own epoch (the fencing checks of its writes).
 */
export function selfLiveSql(lockClass: number, param: string): string {
  return `(SELECT NOT pg_try_advisory_xact_lock_shared(${lockClass}, ${param}::integer))`;
}

/** How soon a reconnect is tried after the liveness connection drops (doubling up to 5 s). */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * This process's membership of the database: a dedicated connection holding a session-level
 * advisory lock on `(class, epoch)`, `epoch` a number from a sequence, new on every connect
 * (so monotonic: the fencing token of whatever this process claims). When the process dies its
 * connection drops and PostgreSQL frees the lock at once, so everyone sees its claims and
 * leadership are dead without waiting for a lease to run out. TCP keepalives on the server
 * side (1 s idle, 1 s interval, 2 probes) do the same for a machine that vanishes without closing
 * its socket. When the connection drops in a live process, a new one is made with a new epoch:
 * what the old epoch held is dead to everyone, this process included (its late writes are fenced).
 */
export class Membership {
  private client: pg.Client | undefined;
  private current: number | undefined;
  private closed = false;
  private retryMs = RECONNECT_MIN_MS;
  private timer: unknown;
  /** Every epoch this process has held: a write about what one of them holds is its own (fencing). */
  private readonly held = new Set<number>();
  readonly lockClass: number;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly schema: string,
  ) {
    this.lockClass = memberLockClass(schema);
  }

  /** The live epoch, or -1 while reconnecting (never live: writes under it are refused). */
  get epoch(): number {
    return this.current ?? -1;
  }

  /** Whether `epoch` is one this process held, now or before a reconnect. */
  heldBy(epoch: number): boolean {
    return this.held.has(epoch);
  }

  /** The PostgreSQL backend pid of the liveness connection (tests terminate it to cut this member off). */
  backendPid: number | undefined;

  async open(): Promise<void> {
    const client = new pg.Client(this.config);
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.current = undefined;
      this.backendPid = undefined;
      client.end().catch(() => {});
      this.reconnect();
    };
    client.on("error", lost);
    try {
      await client.connect();
      await client.query(
        "SET tcp_keepalives_idle = 1; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2",
      );
      const { rows } = await client.query<{ epoch: string; pid: number }>(
        `SELECT nextval('${this.schema}.member_epoch') AS epoch, pg_backend_pid() AS pid`,
      );
      const epoch = Number(rows[0]?.epoch);
      await client.query("SELECT pg_advisory_lock($1, $2)", [this.lockClass, epoch]);
      if (this.closed) throw new Error("PostgreSQL store: closed");
      client.on("end", lost);
      this.client = client;
      this.current = epoch;
      this.held.add(epoch);
      this.backendPid = rows[0]?.pid;
      this.retryMs = RECONNECT_MIN_MS;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  }

  private reconnect(): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = backgroundClock.setTimeout(() => {
      this.timer = undefined;
      this.open().catch(() => {
        this.retryMs = Math.min(RECONNECT_MAX_MS, this.retryMs * 2);
        this.reconnect();
      });
    }, this.retryMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) backgroundClock.clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    this.current = undefined;
    await client?.end().catch(() => {});
  }
}
