import type { Db } from "./db.js";

/*
 * The cron store's longer statements. Parameters, in order:
 * claimDueNextSql: now, owner, lease ms, max, epoch, the notice channel, the schema;
 * finishRunSql: job id, owner, epoch, the run's line, the released job text (null: not known),
 * enabled, next run, the text the claim read, the notice channel, the notice.
 */

/**
 * The claim (`UPDATE … FROM (SELECT … FOR UPDATE SKIP LOCKED)`) and the next due time of what it
 * left (the rows just claimed set aside: the statement reads the table as it stood before its own
 * update), the time on a row of its own (job null). When it took anything, a "claim" notice says
 * who took it and that next time, so the other schedulers move their timers past what it took
 * instead of each sending a claim that finds nothing.
 */
export function claimDueNextSql(db: Db): string {
  return `WITH claimed AS (UPDATE ${db.t("cron_jobs")} AS c SET lease_owner = $2,
           lease_until = $1::bigint + $3::bigint, running_at = $1, lease_epoch = $5::integer
         FROM (SELECT id FROM ${db.t("cron_jobs")}
               WHERE enabled AND next_run_at <= $1 AND (lease_owner IS NULL OR lease_until <= $1)
                 AND ${db.selfLive("$5")}
               ORDER BY next_run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) AS due
         WHERE c.id = due.id RETURNING c.id, c.job, c.running_at),
       after AS (SELECT min(next_run_at) AS at FROM ${db.t("cron_jobs")}
         WHERE enabled AND (lease_owner IS NULL OR lease_until <= $1) AND id NOT IN (SELECT id FROM claimed)),
       told AS (SELECT pg_notify($6, json_build_object('schema', $7::text, 'kind', 'claim',
           'id', $2::text, 'at', (SELECT at FROM after))::text)
         WHERE EXISTS (SELECT 1 FROM claimed))
       SELECT job, running_at, NULL::bigint AS next, NULL::bigint AS told FROM claimed
       UNION ALL
       SELECT NULL, NULL, (SELECT at FROM after), (SELECT count(*) FROM told)`;
}

/**
 * A run's log line and its release together. The line is written while the epoch lives and no
 * other epoch holds the job; the release when the row still holds the text the claim read.
 */
export function finishRunSql(db: Db): string {
  return `WITH line AS (INSERT INTO ${db.t("cron_runs")} (job_id, entry) SELECT $1, $4
           WHERE ${db.selfLive("$3")} AND NOT EXISTS (SELECT 1 FROM ${db.t("cron_jobs")}
             WHERE id = $1 AND lease_owner IS NOT NULL AND lease_epoch IS DISTINCT FROM $3::integer)
           RETURNING 1),
         done AS (UPDATE ${db.t("cron_jobs")} SET job = $5, enabled = $6, next_run_at = $7,
             running_at = NULL, lease_owner = NULL, lease_until = NULL, lease_epoch = NULL
           WHERE $5::text IS NOT NULL AND id = $1 AND lease_owner = $2 AND lease_epoch = $3::integer
             AND ${db.selfLive("$3")} AND job = $8 RETURNING 1),
         notice AS (SELECT pg_notify($9, $10) FROM done)
       SELECT EXISTS (SELECT 1 FROM line) AS logged, EXISTS (SELECT 1 FROM done) AS released,
         (SELECT count(*) FROM notice) AS notified`;
}
