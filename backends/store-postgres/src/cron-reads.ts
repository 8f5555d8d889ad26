import type { CronRunLogEntry, Page } from "@clawtools/core/contracts";
import { type Db, parseRow } from "./db.js";

/** A page of a job's run log, newest first (the cron store's `readRuns`). */
export async function readRunsPage(
  db: Db,
  jobId: string,
  page: { offset?: number; limit?: number },
): Promise<Page<CronRunLogEntry>> {
  const offset = Math.max(0, Math.floor(page.offset ?? 0));
  const limit = Math.max(1, Math.min(200, Math.floor(page.limit ?? 50)));
  const rows = await db.query<{ entry: string }>(
    `SELECT entry FROM ${db.t("cron_runs")} WHERE job_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3`,
    [jobId, offset, limit],
  );
  const [count] = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${db.t("cron_runs")} WHERE job_id = $1`,
    [jobId],
  );
  const total = Number(count?.n ?? 0);
  const entries = rows.map((row) => parseRow<CronRunLogEntry>(row.entry, `a run of cron job ${jobId}`));
  const hasMore = offset + entries.length < total;
  return { entries, total, offset, limit, hasMore, nextOffset: hasMore ? offset + entries.length : null };
}

/**
 * The live processes on the database (their liveness locks, member.ts) and this one's place
 * among them by epoch (the cron store's `claimers`, for the schedulers' wake turns): one read of
 * the lock table.
 */
export async function liveClaimers(db: Db): Promise<{ count: number; rank: number }> {
  const [row] = await db.query<{ count: number; rank: number }>(
    `SELECT count(*)::int AS count, (count(*) FILTER (WHERE live.epoch < $1))::int AS rank
     FROM ${db.live} AS live(epoch)`,
    [db.epoch],
  );
  return { count: Math.max(1, row?.count ?? 1), rank: row?.rank ?? 0 };
}
