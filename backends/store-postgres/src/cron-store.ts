import type { CronJob, CronJobState, CronRunLogEntry, CronStore, Page } from "@clawtools/core/contracts";
import type { PoolClient } from "pg";
import { ASYNC_COMMIT, type Db, finite, millis, NOTIFY_CHANNEL, parseRow } from "./db.js";
import { claimDueNextSql, finishRunSql } from "./cron-statements.js";
import { liveClaimers, readRunsPage } from "./cron-reads.js";
import type { StoreEvents } from "./events.js";

type Row = { job: string; running_at: string | null };
const ORDER = "ORDER BY next_run_at NULLS LAST, id";

/** The job as stored, its `state.runningAtMs` taken from the claim columns (the lease's truth). */
function toJob(row: Row): CronJob {
  const job = parseRow<CronJob>(row.job, "a cron job");
  const state = { ...job.state };
  delete state.runningAtMs;
  if (row.running_at !== null) state.runningAtMs = Number(row.running_at);
  return { ...job, state };
}

/** A job's next due time as a notice carries it: none when it is disabled. */
const dueAt = (enabled: boolean, next: number | null): number | null => (enabled ? next : null);

/**
 * Cron jobs and run logs in PostgreSQL. A claim is one `UPDATE … FROM (SELECT … FOR UPDATE SKIP
 * LOCKED)`: concurrent claimers in any process skip each other's rows, so each due job is
 * claimed by exactly one owner while its lease lasts, and every scheduler on the database may
 * claim (`sharedClaims`). Lease times are the callers' clocks (`nowMs`), as the interface has
 * them. A claim also records its holder's epoch (member.ts): once the holder's connection drops
 * the claim is dead at once, `orphans` lists it for the leader's recovery, and the holder's late
 * `release` or `appendRun` is refused (fencing). Changes are announced over LISTEN/NOTIFY
 * (`onChange`), each write and its notice in one statement.
 */
export class PgCronStore implements CronStore {
  readonly location: string;
  readonly sharedClaims = true;
  /**
   * The job text each claim of this process read, by job id: `release` writes the merged job in
   * one statement when the row still holds that text (no edit came in meanwhile).
   */
  private readonly claimedText = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
    location: string,
  ) {
    this.location = location;
  }

  /** The claim's holder is gone: its epoch's advisory lock is no longer held. */
  private get deadClaim(): string {
    return `(lease_epoch IS NOT NULL AND lease_epoch NOT IN ${this.db.live})`;
  }

  async list(): Promise<CronJob[]> {
    return (await this.db.query<Row>(`SELECT job, running_at FROM ${this.db.t("cron_jobs")} ${ORDER}`)).map(
      toJob,
    );
  }

  async listPage(page: {
    offset: number;
    limit: number;
    includeDisabled?: boolean;
  }): Promise<{ jobs: CronJob[]; total: number }> {
    const where = page.includeDisabled ? "" : "WHERE enabled";
    const rows = await this.db.query<Row>(
      `SELECT job, running_at FROM ${this.db.t("cron_jobs")} ${where} ${ORDER} OFFSET $1 LIMIT $2`,
      [Math.max(0, Math.floor(page.offset)), Math.max(0, Math.floor(page.limit))],
    );
    const [count] = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.db.t("cron_jobs")} ${where}`,
    );
    return { jobs: rows.map(toJob), total: Number(count?.n ?? 0) };
  }

  async count(): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.db.t("cron_jobs")}`);
    return Number(row?.n ?? 0);
  }

  async get(id: string): Promise<CronJob | undefined> {
    const [row] = await this.db.prepared<Row>(
      "cron-get",
      `SELECT job, running_at FROM ${this.db.t("cron_jobs")} WHERE id = $1`,
      [id],
    );
    return row ? toJob(row) : undefined;
  }

  async upsert(job: CronJob): Promise<void> {
    const { runningAtMs, ...state } = job.state;
    const next = millis(state.nextRunAtMs);
    // the job text as given (key order kept); a lease in force stays with its owner
    await this.db.query(
      `WITH up AS (INSERT INTO ${this.db.t("cron_jobs")} (id, job, enabled, next_run_at, running_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET job = excluded.job, enabled = excluded.enabled,
           next_run_at = excluded.next_run_at, running_at = excluded.running_at RETURNING 1)
       SELECT pg_notify($6, $7) FROM up`,
      [
        job.id,
        JSON.stringify({ ...job, state }),
        job.enabled,
        next,
        millis(runningAtMs),
        NOTIFY_CHANNEL,
        this.db.notice("cron", job.id, dueAt(job.enabled, next)),
      ],
    );
  }

  async remove(id: string): Promise<boolean> {
    return (await this.removeRow(id)).length > 0;
  }

  /** Deletes the job (under `owner`'s live claim when given) and its run log, and says so; one statement. */
  private removeRow(id: string, owner?: string): Promise<unknown[]> {
    const held =
      owner === undefined
        ? ""
        : `AND lease_owner = $4 AND lease_epoch = $5::integer AND ${this.db.selfLive("$5")}`;
    return this.db.query(
      `WITH gone AS (DELETE FROM ${this.db.t("cron_jobs")} WHERE id = $1 ${held} RETURNING id),
         runs AS (DELETE FROM ${this.db.t("cron_runs")} WHERE job_id = $1 ${owner === undefined ? "" : "AND EXISTS (SELECT 1 FROM gone)"})
       SELECT pg_notify($2, $3) FROM gone`,
      [
        id,
        NOTIFY_CHANNEL,
        this.db.notice("cron", id, null),
        ...(owner === undefined ? [] : [owner, this.db.epoch]),
      ],
    );
  }

  async claimDue(
    nowMs: number,
    owner: string,
    leaseMs: number,
    max: number,
    limits: { clusterMax?: number } = {},
  ): Promise<CronJob[]> {
    const limit = Math.floor(max);
    if (!(limit > 0)) return [];
    const params = [finite("nowMs", nowMs), owner, finite("leaseMs", leaseMs), limit, this.db.epoch];
    const rows =
      limits.clusterMax === undefined
        ? (await this.claimWithNext(params)).rows
        : // claimers under the cap take turns (migrations.ts, step 4): one round trip all the same
          await this.db.query<Row>(
            `SELECT claimed_job AS job, claimed_running_at AS running_at
             FROM ${this.db.t("claim_due_capped")}($1, $2, $3, $4, $5, $6, $7)`,
            [
              ...params,
              Math.max(0, Math.floor(finite("clusterMax", limits.clusterMax))),
              this.db.member.lockClass,
            ],
          );
    return this.claimed(rows);
  }

  async claimDueWithNext(
    nowMs: number,
    owner: string,
    leaseMs: number,
    max: number,
  ): Promise<{ jobs: CronJob[]; nextWakeAtMs: number | undefined }> {
    const limit = Math.floor(max);
    if (!(limit > 0)) return { jobs: [], nextWakeAtMs: await this.nextWakeAtMs(nowMs) };
    const { rows, next } = await this.claimWithNext([
      finite("nowMs", nowMs),
      owner,
      finite("leaseMs", leaseMs),
      limit,
      this.db.epoch,
    ]);
    return { jobs: this.claimed(rows), nextWakeAtMs: next };
  }

  /** The claim and the next due time of what it left, in one statement (cron-statements.ts). */
  private async claimWithNext(params: unknown[]): Promise<{ rows: Row[]; next: number | undefined }> {
    const rows = await this.db.prepared<Row & { next: string | null }>(
      "cron-claim-due-next",
      claimDueNextSql(this.db),
      [...params, NOTIFY_CHANNEL, this.db.schema],
    );
    const next = rows.find((row) => row.job === null)?.next;
    return { rows: rows.filter((row) => row.job !== null), next: next == null ? undefined : Number(next) };
  }

  /** Claimed rows as jobs in due order, each claim's text kept for its release. */
  private claimed(rows: Row[]): CronJob[] {
    const jobs = rows.map((row) => {
      const job = toJob(row);
      this.claimedText.set(job.id, row.job);
      return job;
    });
    // RETURNING keeps no order: due order is next run, then id (byte-wise, as the column's collation)
    return jobs.sort(
      (a, b) =>
        (a.state.nextRunAtMs ?? 0) - (b.state.nextRunAtMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }

  async claim(id: string, nowMs: number, owner: string, leaseMs: number): Promise<CronJob | undefined> {
    const [row] = await this.db.query<Row>(
      `UPDATE ${this.db.t("cron_jobs")} SET lease_owner = $3, lease_until = $2::bigint + $4::bigint,
         running_at = $2, lease_epoch = $5::integer
       WHERE id = $1 AND ${this.db.selfLive("$5")}
         AND (lease_owner IS NULL OR lease_owner = $3 OR lease_until <= $2 OR ${this.deadClaim})
       RETURNING job, running_at`,
      [id, finite("nowMs", nowMs), owner, finite("leaseMs", leaseMs), this.db.epoch],
    );
    if (!row) return undefined;
    this.claimedText.set(id, row.job);
    return toJob(row);
  }

  /** The job after a release: `next` merged into its state, `runningAtMs` cleared, off when told. */
  private released(id: string, text: string, next: Partial<CronJobState>, disable?: boolean): CronJob {
    const job = parseRow<CronJob>(text, `cron job ${id}`);
    const state: CronJobState = { ...job.state, ...next };
    delete state.runningAtMs;
    return { ...job, enabled: disable ? false : job.enabled, state };
  }

  async release(
    id: string,
    owner: string,
    next: Partial<CronJobState>,
    options: { remove?: boolean; disable?: boolean } = {},
  ): Promise<boolean> {
    const claimed = this.claimedText.get(id);
    this.claimedText.delete(id);
    if (options.remove) return (await this.removeRow(id, owner)).length > 0;
    // one statement when the row still holds the text this claim read (the usual case); after an
    // edit made during the run, the row is read under its lock and the state merged into the edit
    if (
      claimed !== undefined &&
      (await this.write(id, owner, claimed, this.released(id, claimed, next, options.disable)))
    )
      return true;
    return this.db.tx(async (client) => {
      const { rows } = await client.query<Row>(
        `SELECT job FROM ${this.db.t("cron_jobs")} WHERE id = $1 AND lease_owner = $2
           AND lease_epoch IS NOT DISTINCT FROM $3::integer AND ${this.db.selfLive("$3")} FOR UPDATE`,
        [id, owner, this.db.epoch],
      );
      if (!rows[0]) return false;
      return this.write(
        id,
        owner,
        rows[0].job,
        this.released(id, rows[0].job, next, options.disable),
        client,
      );
    });
  }

  /**
   * The run's log line and the release in one durable statement; after an edit made during the
   * run, the release is redone as `release` does once the line is in. Fenced as both are.
   */
  async finishRun(
    entry: CronRunLogEntry,
    owner: string,
    next: Partial<CronJobState>,
    options: { disable?: boolean } = {},
  ): Promise<boolean> {
    const id = entry.jobId;
    const claimed = this.claimedText.get(id);
    const updated = claimed === undefined ? undefined : this.released(id, claimed, next, options.disable);
    const at = updated ? millis(updated.state.nextRunAtMs) : null;
    const [row] = await this.db.prepared<{ logged: boolean; released: boolean }>(
      "cron-finish-run",
      finishRunSql(this.db),
      [
        id,
        owner,
        this.db.epoch,
        JSON.stringify(entry),
        updated ? JSON.stringify(updated) : null,
        updated?.enabled ?? null,
        at,
        claimed ?? null,
        NOTIFY_CHANNEL,
        this.db.notice("cron", id, updated ? dueAt(updated.enabled, at) : null),
      ],
    );
    this.claimedText.delete(id);
    // the job was edited during the run (or this claim's text is unknown): merged under its lock
    const released = row?.released === true || (await this.release(id, owner, next, options));
    if (!row?.logged)
      throw new Error(
        `PostgreSQL store: the run of cron job ${id} was not recorded: this process no longer holds its claim (its connection to the database dropped)`,
      );
    return released;
  }

  /** Ends `owner`'s live claim with the job `updated`, if the row still holds `was`; notifies; one statement. */
  private async write(
    id: string,
    owner: string,
    was: string,
    updated: CronJob,
    client: Pick<PoolClient, "query"> = this.db.pool,
  ): Promise<boolean> {
    const next = millis(updated.state.nextRunAtMs);
    const rows = await this.db.prepared(
      "cron-release",
      `WITH done AS (UPDATE ${this.db.t("cron_jobs")} SET job = $4, enabled = $5, next_run_at = $6,
           running_at = NULL, lease_owner = NULL, lease_until = NULL, lease_epoch = NULL
         WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3::integer AND ${this.db.selfLive("$3")}
           AND job = $7 RETURNING 1)
       SELECT pg_notify($8, $9), ${ASYNC_COMMIT} FROM done`,
      [
        id,
        owner,
        this.db.epoch,
        JSON.stringify(updated),
        updated.enabled,
        next,
        was,
        NOTIFY_CHANNEL,
        this.db.notice("cron", id, dueAt(updated.enabled, next)),
      ],
      client,
    );
    return rows.length > 0;
  }

  async nextWakeAtMs(nowMs: number): Promise<number | undefined> {
    const [row] = await this.db.prepared<{ at: string | null }>(
      "cron-next-wake",
      `SELECT min(next_run_at) AS at FROM ${this.db.t("cron_jobs")}
       WHERE enabled AND (lease_owner IS NULL OR lease_until <= $1)`,
      [finite("nowMs", nowMs)],
    );
    return row?.at == null ? undefined : Number(row.at);
  }

  /**
   * Fenced: a line is written only while this process is live and no other epoch holds the job's
   * claim, so a process cut off from the database (its claim passed on) records nothing late.
   */
  async appendRun(entry: CronRunLogEntry): Promise<void> {
    const rows = await this.db.prepared(
      "cron-append-run",
      `INSERT INTO ${this.db.t("cron_runs")} (job_id, entry) SELECT $1, $2
       WHERE ${this.db.selfLive("$3")} AND NOT EXISTS (SELECT 1 FROM ${this.db.t("cron_jobs")}
         WHERE id = $1 AND lease_owner IS NOT NULL AND lease_epoch IS DISTINCT FROM $3::integer)
       RETURNING 1`,
      [entry.jobId, JSON.stringify(entry), this.db.epoch],
    );
    if (rows.length === 0)
      throw new Error(
        `PostgreSQL store: the run of cron job ${entry.jobId} was not recorded: this process no longer holds its claim (its connection to the database dropped)`,
      );
  }

  /** Claims whose holder's connection dropped, or whose lease ran out, on jobs still marked running. */
  async orphans(nowMs: number): Promise<CronJob[]> {
    const rows = await this.db.query<Row>(
      `SELECT job, running_at FROM ${this.db.t("cron_jobs")}
       WHERE lease_owner IS NOT NULL AND (lease_until <= $1 OR ${this.deadClaim}) ${ORDER} LIMIT 1000`,
      [finite("nowMs", nowMs)],
    );
    return rows.map(toJob);
  }

  readRuns(jobId: string, page: { offset?: number; limit?: number } = {}): Promise<Page<CronRunLogEntry>> {
    return readRunsPage(this.db, jobId, page);
  }

  /**
   * Calls `listener` with the job id whenever any process adds, changes, claims back or removes a
   * job, so a scheduler can re-arm at once instead of at its next capped wake-up; with `"*"`
   * after the listening connection was re-opened (anything may have changed). Resolves to the
   * unsubscribe once listening.
   */
  onChange(listener: (jobId: string, nextRunAtMs?: number | null) => void): Promise<() => void> {
    return this.events.subscribe(this.db.schema, "cron", listener);
  }

  /**
   * Calls `listener` with the owner of every claim that took due jobs and the next due time it
   * left (null: none), from any process; with `"*"` after the listening connection was re-opened.
   */
  onClaim(listener: (owner: string, nextWakeAtMs?: number | null) => void): Promise<() => void> {
    return this.events.subscribe(this.db.schema, "claim", listener);
  }

  /** The live processes on this database and this one's place among them (cron-reads.ts). */
  claimers(): Promise<{ count: number; rank: number }> {
    return liveClaimers(this.db);
  }
}
