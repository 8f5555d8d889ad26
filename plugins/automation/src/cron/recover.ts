import type { Clock, CronStore } from "./interfaces.js";
import { safeNextRun } from "./schedule.js";
import type { CronJobState, CronRunLogEntry } from "./types.js";

export const INTERRUPTED_ERROR = "interrupted: the process stopped while the job was running";
export const MISSED_ERROR = "missed: the scheduler was not running at the scheduled time (catchUp=off)";

/** A job still marked running whose last log line is its run: the run finished, only its state was not stored. */
function restoreFromLog(state: CronJobState, last: CronRunLogEntry): { disable: boolean } {
  state.lastRunAtMs = last.runAtMs as number;
  state.lastRunStatus = last.status;
  if (last.error) state.lastError = last.error;
  else delete state.lastError;
  if (last.durationMs !== undefined) state.lastDurationMs = last.durationMs;
  if (last.deliveryStatus) state.lastDeliveryStatus = last.deliveryStatus;
  state.consecutiveErrors = last.status === "error" ? (state.consecutiveErrors ?? 0) + 1 : 0;
  if (last.nextRunAtMs === undefined) {
    delete state.nextRunAtMs;
    return { disable: true };
  }
  state.nextRunAtMs = last.nextRunAtMs;
  return { disable: false };
}

/**
 * What a scheduler does when it takes over a store (start, or a new leader): runs cut off by a
 * crash are restored from their log line or recorded as interrupted, jobs without a next run get
 * one, and with `catchUp: "off"` a run missed while nobody scheduled is logged as skipped.
 */
export async function recoverJobs(store: CronStore, clock: Clock, catchUp: "off" | "once"): Promise<void> {
  const now = clock.now();
  for (const job of await store.list()) {
    const state: CronJobState = { ...job.state };
    let changed = false;
    let disable = false;
    if (state.runningAtMs !== undefined) {
      const last = (await store.readRuns(job.id, { limit: 1 })).entries[0];
      if (last && last.runAtMs === state.runningAtMs && last.status !== "interrupted") {
        disable = restoreFromLog(state, last).disable;
      } else {
        await store.appendRun({
          ts: now,
          jobId: job.id,
          action: "finished",
          status: "interrupted",
          error: INTERRUPTED_ERROR,
          runAtMs: state.runningAtMs,
          ...(job.sessionKey ? { sessionKey: job.sessionKey } : {}),
        });
        state.lastRunAtMs = state.runningAtMs;
        state.lastRunStatus = "interrupted";
        state.lastError = INTERRUPTED_ERROR;
      }
      delete state.runningAtMs;
      changed = true;
    }
    if (job.enabled && state.nextRunAtMs === undefined && state.lastRunAtMs === undefined) {
      const next = safeNextRun(job, now);
      if (next !== undefined) state.nextRunAtMs = next;
      changed = true;
    }
    if (job.enabled && state.nextRunAtMs !== undefined && state.nextRunAtMs <= now && catchUp === "off") {
      await store.appendRun({
        ts: now,
        jobId: job.id,
        action: "finished",
        status: "skipped",
        error: MISSED_ERROR,
        runAtMs: state.nextRunAtMs,
      });
      const next = safeNextRun(job, now);
      if (next === undefined) {
        delete state.nextRunAtMs;
        disable = true;
      } else state.nextRunAtMs = next;
      changed = true;
    }
    if (changed) await store.upsert({ ...job, enabled: disable ? false : job.enabled, state });
  }
}
