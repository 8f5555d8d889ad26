import { systemClock } from "@clawtools/core/time";
import type { HolderLiveness, RunRecord, RunRegistry } from "@clawtools/core/contracts";
import { type Db, millis, parseRow, withoutUndefined } from "./db.js";
import type { StoreEvents } from "./events.js";

type Row = { record: string };

/** The holder's epoch a record carries, for the column the liveness reads use. */
const epochOf = (run: RunRecord): number | null => millis(run.owner?.epoch);

/** Whether a whole liveness pass still judges the run (RunRegistry.listUnsettled): kept in a column. */
const unsettledRun = (run: RunRecord): boolean =>
  run.status === "running" || run.announce?.status === "pending";

/** Why a write to a run is refused: one line naming the run and what happened to it. */
const refused = (runId: string, why: string) =>
  new Error(`PostgreSQL store: run ${runId} was not recorded: ${why}`);

/**
 * Sub-agent runs in PostgreSQL, liveness included. A run is bound to its holder's connection as
 * cron claims are (member.ts): `record` stamps the holder's member epoch into `owner.epoch`, and
 * once that connection drops (the process killed, on this machine or any other) `liveness` says
 * so at once and the run is lost to everyone. Fenced: after that its holder may record nothing
 * about it but `lost`, and nothing but `lost` is recorded over `lost`. Every change is announced
 * over LISTEN/NOTIFY, which `waitForEnd` uses to follow a run another process (or machine) holds.
 */
export class PgRunRegistry implements RunRegistry {
  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {}

  async record(run: RunRecord): Promise<void> {
    // the recording process holds the run: bound to its connection from now on
    const held = run.owner !== undefined && run.status === "running";
    const clean = withoutUndefined(held ? { ...run, owner: { ...run.owner!, epoch: this.db.epoch } } : run);
    await this.db.tx(async (client) => {
      const { rows } = await client.query<{ live: boolean; status: string | null }>(
        `SELECT ${this.db.selfLive("$1")} AS live,
           (SELECT status FROM ${this.db.t("runs")} WHERE run_id = $2 FOR UPDATE) AS status`,
        [this.db.epoch, clean.runId],
      );
      if (held && !rows[0]?.live)
        throw refused(clean.runId, "this process's connection to the database is down (reconnecting)");
      if (rows[0]?.status === "lost" && clean.status !== "lost") throw refused(clean.runId, "it ended lost");
      await client.query(
        `INSERT INTO ${this.db.t("runs")} (run_id, requester, created_at, status, record, owner_epoch, unsettled)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (run_id) DO UPDATE SET requester = excluded.requester, created_at = excluded.created_at,
           status = excluded.status, record = excluded.record, owner_epoch = excluded.owner_epoch,
           unsettled = excluded.unsettled`,
        [
          clean.runId,
          clean.requesterSessionKey,
          millis(clean.createdAt) ?? 0,
          clean.status,
          JSON.stringify(clean),
          epochOf(clean),
          unsettledRun(clean),
        ],
      );
      await this.db.notify(client, "run", clean.runId);
    });
  }

  async update(runId: string, patch: Partial<Omit<RunRecord, "runId">>): Promise<RunRecord> {
    return this.db.tx(async (client) => {
      const { rows } = await client.query<Row & { epoch: number | null; live: boolean | null }>(
        `SELECT record, owner_epoch AS epoch, ${this.db.selfLive("owner_epoch")} AS live
         FROM ${this.db.t("runs")} WHERE run_id = $1 FOR UPDATE`,
        [runId],
      );
      const row = rows[0];
      if (!row) throw new Error(`Unknown run: ${runId}`);
      const stored = parseRow<RunRecord>(row.record, `run ${runId}`);
      const ends = patch.status !== undefined || patch.outcome !== undefined;
      if (stored.status === "lost" && ends && patch.status !== "lost") throw refused(runId, "it ended lost");
      // a holder whose connection dropped is dead to everyone, itself included: its late writes are fenced
      if (stored.status === "running" && row.epoch !== null && !row.live && this.db.member.heldBy(row.epoch))
        if (patch.status !== "lost")
          throw refused(
            runId,
            "this process no longer holds it (its connection to the database dropped: it is lost)",
          );
      const next: RunRecord = withoutUndefined({ ...stored, ...patch, runId });
      await client.query(
        `UPDATE ${this.db.t("runs")} SET requester = $2, created_at = $3, status = $4, record = $5, owner_epoch = $6,
           unsettled = $7
         WHERE run_id = $1`,
        [
          runId,
          next.requesterSessionKey,
          millis(next.createdAt) ?? 0,
          next.status,
          JSON.stringify(next),
          epochOf(next),
          unsettledRun(next),
        ],
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

  /**
   * The live member epochs, and how many running runs are held under one that is not: one
   * statement on `pg_locks` and the running runs' index, cheap enough to ask every second.
   */
  async liveness(): Promise<HolderLiveness> {
    const [row] = await this.db.prepared<{ live: string[] | null; orphaned: string }>(
      "runs.liveness",
      `SELECT (SELECT array_agg(e) FROM ${this.db.live} AS l(e)) AS live,
         (SELECT count(*) FROM ${this.db.t("runs")} WHERE status = 'running' AND owner_epoch IS NOT NULL
           AND owner_epoch NOT IN ${this.db.live}) AS orphaned`,
      [],
    );
    return { live: new Set((row?.live ?? []).map(Number)), orphaned: Number(row?.orphaned ?? 0) };
  }

  /**
   * The running runs whose holder's epoch is not live, oldest first: the dead epochs are found in
   * the index of running runs by epoch (runs_running_epoch), and only their runs are read.
   */
  async listOrphaned(): Promise<RunRecord[]> {
    const rows = await this.db.prepared<Row>(
      "runs.orphaned",
      `SELECT record FROM ${this.db.t("runs")} WHERE status = 'running' AND owner_epoch = ANY (ARRAY(
         SELECT DISTINCT owner_epoch FROM ${this.db.t("runs")} WHERE status = 'running'
           AND owner_epoch IS NOT NULL AND owner_epoch NOT IN ${this.db.live}))
       ORDER BY created_at, run_id`,
      [],
    );
    return rows.map((row) => parseRow<RunRecord>(row.record, "a run"));
  }

  /**
   * The runs a whole liveness pass judges (running, or their announce pending), oldest first,
   * through the partial index runs_unsettled: a pass costs the runs in flight, not the history.
   */
  async listUnsettled(): Promise<RunRecord[]> {
    const rows = await this.db.prepared<Row>(
      "runs.unsettled",
      `SELECT record FROM ${this.db.t("runs")} WHERE unsettled ORDER BY created_at, run_id`,
      [],
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
