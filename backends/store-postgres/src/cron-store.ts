import type { CronJob, CronJobState, CronRunLogEntry, CronStore, Page } from "@clawtools/core/contracts";
import { type Db, finite, millis, parseRow } from "./db.js";
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

/**
 * Cron jobs and run logs in PostgreSQL. A claim is one `UPDATE … FROM (SELECT … FOR UPDATE SKIP
 * LOCKED)`: concurrent claimers in any process skip each other's rows, so each due job is
 * claimed by exactly one owner while its lease lasts. Lease times are the callers' clocks
 * (`nowMs`), as the interface has them. A claim also records its holder's epoch (member.ts):
 * once the holder's connection drops the claim is dead at once, `orphans` lists it for the
 * leader's recovery, and the holder's late `release` or `appendRun` is refused (fencing).
 * Changes are announced over LISTEN/NOTIFY (`onChange`).
 */
export class PgCronStore implements CronStore {
  readonly location: string;

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
    const [row] = await this.db.query<Row>(
      `SELECT job, running_at FROM ${this.db.t("cron_jobs")} WHERE id = $1`,
      [id],
    );
    return row ? toJob(row) : undefined;
  }

  async upsert(job: CronJob): Promise<void> {
    const { runningAtMs, ...state } = job.state;
    // the job text as given (key order kept); a lease in force stays with its owner
    await this.db.query(
      `INSERT INTO ${this.db.t("cron_jobs")} (id, job, enabled, next_run_at, running_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET job = excluded.job, enabled = excluded.enabled,
         next_run_at = excluded.next_run_at, running_at = excluded.running_at`,
      [
        job.id,
        JSON.stringify({ ...job, state }),
        job.enabled,
        millis(state.nextRunAtMs),
        millis(runningAtMs),
      ],
    );
    await this.db.notify(this.db.pool, "cron", job.id);
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.db.tx(async (client) => {
      const { rowCount } = await client.query(`DELETE FROM ${this.db.t("cron_jobs")} WHERE id = $1`, [id]);
      await client.query(`DELETE FROM ${this.db.t("cron_runs")} WHERE job_id = $1`, [id]);
      if (rowCount) await this.db.notify(client, "cron", id);
      return (rowCount ?? 0) > 0;
    });
    return removed;
  }

  async claimDue(nowMs: number, owner: string, leaseMs: number, max: number): Promise<CronJob[]> {
    const limit = Math.floor(max);
    if (!(limit > 0)) return [];
    const rows = await this.db.query<Row & { next_run_at: string }>(
      `UPDATE ${this.db.t("cron_jobs")} AS c SET lease_owner = $2, lease_until = $1::bigint + $3::bigint,
         running_at = $1, lease_epoch = $5::integer
       FROM (SELECT id FROM ${this.db.t("cron_jobs")}
             WHERE enabled AND next_run_at <= $1 AND (lease_owner IS NULL OR lease_until <= $1)
               AND $5::integer IN ${this.db.live}
             ORDER BY next_run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) AS due
       WHERE c.id = due.id RETURNING c.job, c.running_at, c.next_run_at`,
      [finite("nowMs", nowMs), owner, finite("leaseMs", leaseMs), limit, this.db.epoch],
    );
    // RETURNING keeps no order: due order is next run, then id (byte-wise, as the column's collation)
    const jobs = rows.map(toJob);
    return jobs.sort(
      (a, b) =>
        (a.state.nextRunAtMs ?? 0) - (b.state.nextRunAtMs ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }

  async claim(id: string, nowMs: number, owner: string, leaseMs: number): Promise<CronJob | undefined> {
    const [row] = await this.db.query<Row>(
      `UPDATE ${this.db.t("cron_jobs")} SET lease_owner = $3, lease_until = $2::bigint + $4::bigint,
         running_at = $2, lease_epoch = $5::integer
       WHERE id = $1 AND $5::integer IN ${this.db.live}
         AND (lease_owner IS NULL OR lease_owner = $3 OR lease_until <= $2 OR ${this.deadClaim})
       RETURNING job, running_at`,
      [id, finite("nowMs", nowMs), owner, finite("leaseMs", leaseMs), this.db.epoch],
    );
    return row ? toJob(row) : undefined;
  }

  async release(
    id: string,
    owner: string,
    next: Partial<CronJobState>,
    options: { remove?: boolean; disable?: boolean } = {},
  ): Promise<boolean> {
    return this.db.tx(async (client) => {
      const { rows } = await client.query<Row>(
        `SELECT job, running_at FROM ${this.db.t("cron_jobs")} WHERE id = $1 AND lease_owner = $2
           AND lease_epoch IS NOT DISTINCT FROM $3::integer AND $3::integer IN ${this.db.live} FOR UPDATE`,
        [id, owner, this.db.epoch],
      );
      if (!rows[0]) return false;
      if (options.remove) {
        await client.query(`DELETE FROM ${this.db.t("cron_jobs")} WHERE id = $1`, [id]);
        await client.query(`DELETE FROM ${this.db.t("cron_runs")} WHERE job_id = $1`, [id]);
      } else {
        const job = parseRow<CronJob>(rows[0].job, `cron job ${id}`);
        const state: CronJobState = { ...job.state, ...next };
        delete state.runningAtMs;
        const updated: CronJob = { ...job, enabled: options.disable ? false : job.enabled, state };
        await client.query(
          `UPDATE ${this.db.t("cron_jobs")} SET job = $2, enabled = $3, next_run_at = $4,
             running_at = NULL, lease_owner = NULL, lease_until = NULL, lease_epoch = NULL WHERE id = $1`,
          [id, JSON.stringify(updated), updated.enabled, millis(state.nextRunAtMs)],
        );
      }
      await this.db.notify(client, "cron", id);
      return true;
    });
  }

  async nextWakeAtMs(nowMs: number): Promise<number | undefined> {
    const [row] = await this.db.query<{ at: string | null }>(
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
    const rows = await this.db.query(
      `INSERT INTO ${this.db.t("cron_runs")} (job_id, entry) SELECT $1, $2
       WHERE $3::integer IN ${this.db.live} AND NOT EXISTS (SELECT 1 FROM ${this.db.t("cron_jobs")}
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

  async readRuns(
    jobId: string,
    page: { offset?: number; limit?: number } = {},
  ): Promise<Page<CronRunLogEntry>> {
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.max(1, Math.min(200, Math.floor(page.limit ?? 50)));
    const rows = await this.db.query<{ entry: string }>(
      `SELECT entry FROM ${this.db.t("cron_runs")} WHERE job_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3`,
      [jobId, offset, limit],
    );
    const [count] = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.db.t("cron_runs")} WHERE job_id = $1`,
      [jobId],
    );
    const total = Number(count?.n ?? 0);
    const entries = rows.map((row) => parseRow<CronRunLogEntry>(row.entry, `a run of cron job ${jobId}`));
    const hasMore = offset + entries.length < total;
    return { entries, total, offset, limit, hasMore, nextOffset: hasMore ? offset + entries.length : null };
  }

  /**
   * Calls `listener` with the job id whenever any process adds, changes, claims back or removes a
   * job, so a scheduler can re-arm at once instead of at its next capped wake-up; with `"*"`
   * after the listening connection was re-opened (anything may have changed). Resolves to the
   * unsubscribe once listening.
   */
  async onChange(listener: (jobId: string) => void): Promise<() => void> {
    const off = this.events.on(this.db.schema, "cron", "*", (event) => listener(event.id));
    try {
      await this.events.ready();
    } catch (error) {
      off();
      throw error;
    }
    return off;
  }
}
