import { systemClock } from "@clawtools/core/time";
import type { RunRecord, RunRegistry } from "@clawtools/core/contracts";
import { type Db, millis, parseRow, withoutUndefined } from "./db.js";
import type { StoreEvents } from "./events.js";

type Row = { record: string };

/**
 * Sub-agent runs in PostgreSQL, liveness included: a run's `owner` and `heartbeatAt` are stored
 * with it, so any process on the database sees who holds a run and when it last said so. Every
 * change is announced over LISTEN/NOTIFY, which `waitForEnd` uses to follow a run another
 * process (or machine) holds.
 */
export class PgRunRegistry implements RunRegistry {
  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {}

  async record(run: RunRecord): Promise<void> {
    const clean = withoutUndefined(run);
    await this.db.tx(async (client) => {
      await client.query(
        `INSERT INTO ${this.db.t("runs")} (run_id, requester, created_at, status, record) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (run_id) DO UPDATE SET requester = excluded.requester, created_at = excluded.created_at,
           status = excluded.status, record = excluded.record`,
        [
          clean.runId,
          clean.requesterSessionKey,
          millis(clean.createdAt) ?? 0,
          clean.status,
          JSON.stringify(clean),
        ],
      );
      await this.db.notify(client, "run", clean.runId);
    });
  }

  async update(runId: string, patch: Partial<Omit<RunRecord, "runId">>): Promise<RunRecord> {
    return this.db.tx(async (client) => {
      const { rows } = await client.query<Row>(
        `SELECT record FROM ${this.db.t("runs")} WHERE run_id = $1 FOR UPDATE`,
        [runId],
      );
      if (!rows[0]) throw new Error(`Unknown run: ${runId}`);
      const next: RunRecord = withoutUndefined({
        ...parseRow<RunRecord>(rows[0].record, `run ${runId}`),
        ...patch,
        runId,
      });
      await client.query(
        `UPDATE ${this.db.t("runs")} SET requester = $2, created_at = $3, status = $4, record = $5 WHERE run_id = $1`,
        [runId, next.requesterSessionKey, millis(next.createdAt) ?? 0, next.status, JSON.stringify(next)],
      );
      await this.db.notify(client, "run", runId);
      return next;
    });
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    const [row] = await this.db.query<Row>(`SELECT record FROM ${this.db.t("runs")} WHERE run_id = $1`, [
      runId,
    ]);
    return row ? parseRow<RunRecord>(row.record, `run ${runId}`) : undefined;
  }

  async listByRequester(requesterSessionKey: string): Promise<RunRecord[]> {
    const rows = await this.db.query<Row>(
      `SELECT record FROM ${this.db.t("runs")} WHERE requester = $1 ORDER BY created_at, run_id`,
      [requesterSessionKey],
    );
    return rows.map((row) => parseRow<RunRecord>(row.record, "a run"));
  }

  async list(): Promise<RunRecord[]> {
    const rows = await this.db.query<Row>(
      `SELECT record FROM ${this.db.t("runs")} ORDER BY created_at, run_id`,
    );
    return rows.map((row) => parseRow<RunRecord>(row.record, "a run"));
  }

  /** Runs still marked running (what a liveness sweep looks at), oldest first. */
  async listRunning(): Promise<RunRecord[]> {
    const rows = await this.db.query<Row>(
      `SELECT record FROM ${this.db.t("runs")} WHERE status = 'running' ORDER BY created_at, run_id`,
    );
    return rows.map((row) => parseRow<RunRecord>(row.record, "a run"));
  }

  /**
   * The run once it is no longer running, whichever process ends it; the run as it stands when
   * `timeoutMs` passes first (still running), or undefined for an unknown run.
   */
  async waitForEnd(runId: string, timeoutMs: number): Promise<RunRecord | undefined> {
    return new Promise<RunRecord | undefined>((resolve, reject) => {
      let settled = false;
      const finish = (run: RunRecord | undefined) => {
        if (settled) return;
        settled = true;
        systemClock.clearTimeout(timer);
        unsubscribe();
        resolve(run);
      };
      const check = () =>
        this.get(runId).then((run) => {
          if (run?.status !== "running") finish(run);
        });
      // subscribe first, then read: an end between the two is not missed
      const unsubscribe = this.events.on(this.db.schema, "run", runId, () => {
        check().catch(() => {});
      });
      const timer = systemClock.setTimeout(() => {
        this.get(runId).then(finish, fail);
      }, timeoutMs);
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        systemClock.clearTimeout(timer);
        unsubscribe();
        reject(error);
      };
      this.events.ready().then(check).catch(fail);
    });
  }
}
