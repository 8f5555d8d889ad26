import type { CronJob } from "@clawtools/core/contracts";
import { parseRow } from "./db.js";

/** A cron job row as the store reads it: the job text and the claim's start. */
export type Row = { job: string; running_at: string | null };
export const ORDER = "ORDER BY next_run_at NULLS LAST, id";

/** The job as stored, its `state.runningAtMs` taken from the claim columns (the lease's truth). */
export function toJob(row: Row): CronJob {
  const job = parseRow<CronJob>(row.job, "a cron job");
  const state = { ...job.state };
  delete state.runningAtMs;
  if (row.running_at !== null) state.runningAtMs = Number(row.running_at);
  return { ...job, state };
}

/** A job's next due time as a notice carries it: none when it is disabled. */
export const dueAt = (enabled: boolean, next: number | null): number | null => (enabled ? next : null);
