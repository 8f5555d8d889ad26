import type { DeliveryResult, RunResult } from "./executor.js";
import type { CronStore } from "./interfaces.js";
import { backoffMs, safeNextRun } from "./schedule.js";
import type { CronJob, CronJobState, CronRunLogEntry, CronRunStatus } from "./types.js";

/** A one-shot job retries a transient error this many times before it is turned off. */
export const ONE_SHOT_RETRIES = 3;
const TRANSIENT =
  /rate.?limit|overloaded|network|timed? ?out|timeout|ECONNRESET|ECONNREFUSED|EAI_AGAIN|socket hang up|\b5\d\d\b/i;
const SUMMARY_MAX = 2_000;

export interface RunOutcome {
  status: CronRunStatus;
  error?: string;
  summary?: string;
  /** The run log line (written unless the job is removed). */
  entry: CronRunLogEntry;
  /** The job's new state. */
  state: Partial<CronJobState>;
  remove: boolean;
  disable: boolean;
}

/**
 * A finished run's record: its status (a failed delivery fails the run unless it is best effort),
 * when the job runs next (its schedule, not before the error backoff; a one-shot retries transient
 * errors, then is turned off or deleted), and the run log line.
 */
export function settleRun(
  job: CronJob,
  run: { runId: string; runAtMs: number; endMs: number },
  result: RunResult,
  delivery: DeliveryResult,
): RunOutcome {
  const { runAtMs, endMs } = run;
  let status: CronRunStatus = result.status;
  let error = result.error;
  if (delivery.deliveryStatus === "failed" && status === "ok" && job.delivery?.bestEffort !== true) {
    status = "error";
    error = `delivery failed: ${delivery.deliveryError ?? "unknown error"}`;
  }
  const consecutiveErrors = status === "error" ? (job.state.consecutiveErrors ?? 0) + 1 : 0;
  let nextRunAtMs: number | undefined;
  let disable = false;
  let remove = false;
  if (job.schedule.kind === "at") {
    if (status === "error" && TRANSIENT.test(error ?? "") && consecutiveErrors <= ONE_SHOT_RETRIES)
      nextRunAtMs = endMs + backoffMs(consecutiveErrors);
    else if (status === "ok" && job.deleteAfterRun) remove = true;
    else disable = true;
  } else if (status === "ok" && job.deleteAfterRun) remove = true;
  else {
    nextRunAtMs = safeNextRun(job, Math.max(endMs, runAtMs));
    if (status === "error" && nextRunAtMs !== undefined)
      nextRunAtMs = Math.max(nextRunAtMs, endMs + backoffMs(consecutiveErrors));
    if (nextRunAtMs === undefined) disable = true;
  }
  const summary = result.summary !== undefined ? result.summary.slice(0, SUMMARY_MAX) : undefined;
  const entry: CronRunLogEntry = {
    ts: endMs,
    jobId: job.id,
    runId: run.runId,
    action: "finished",
    status,
    ...(error ? { error } : {}),
    ...(summary !== undefined ? { summary } : {}),
    delivered: delivery.delivered,
    deliveryStatus: delivery.deliveryStatus,
    ...(delivery.deliveryError ? { deliveryError: delivery.deliveryError } : {}),
    ...(result.sessionKey ? { sessionKey: result.sessionKey } : {}),
    runAtMs,
    durationMs: endMs - runAtMs,
    ...(nextRunAtMs !== undefined ? { nextRunAtMs } : {}),
    ...(result.model ? { model: result.model } : {}),
  };
  return {
    status,
    ...(error ? { error } : {}),
    ...(summary !== undefined ? { summary } : {}),
    entry,
    state: {
      nextRunAtMs,
      lastRunAtMs: runAtMs,
      lastRunStatus: status,
      lastError: error,
      lastDurationMs: endMs - runAtMs,
      consecutiveErrors,
      lastDeliveryStatus: delivery.deliveryStatus,
    },
    remove,
    disable,
  };
}

/**
 * Writes a finished run's record under its claim: the log line first (the durable record of the
 * finish: a store may write the released state lazily, and a restart restores the state from this
 * line, see recover.ts), then the release that ends the claim with the job's new state.
 */
export async function recordRun(store: CronStore, owner: string, jobId: string, outcome: RunOutcome) {
  // a store that writes both at once: the line and the release in one durable write
  if (store.finishRun && !outcome.remove) {
    await store.finishRun(outcome.entry, owner, outcome.state, { disable: outcome.disable });
    return;
  }
  try {
    if (!outcome.remove) await store.appendRun(outcome.entry);
  } finally {
    await store.release(jobId, owner, outcome.state, { remove: outcome.remove, disable: outcome.disable });
  }
}
