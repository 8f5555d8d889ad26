import type { Clock, CronStore } from "./interfaces.js";
import { safeNextRun } from "./schedule.js";
import type { CronJob, CronJobState, CronRunLogEntry } from "./types.js";

export const INTERRUPTED_ERROR = "interrupted: the process stopped while the job was running";
export const MISSED_ERROR = "missed: the scheduler was not running at the scheduled time (catchUp=off)";

/** A job still marked running whose last log line is a run under that claim: the run finished, only its state was not stored. */
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
 * one, and with `catchUp: "off"` a run missed while nobody scheduled is logged as skipped. Each
 * change is made under a claim of the job, so a run another live process holds is left alone
 * (its claim is live), and the change merges into the job as it stands, losing no concurrent edit.
 * `jobs` limits the pass to those (the orphaned claims a store lists); all jobs otherwise.
 */
export async function recoverJobs(
  store: CronStore,
  clock: Clock,
  catchUp: "off" | "once",
  claimer: { owner: string; leaseMs: number },
  jobs?: CronJob[],
): Promise<void> {
  const now = clock.now();
  for (const listed of jobs ?? (await store.list())) {
    const seenRunning = listed.state.runningAtMs;
    const missed =
      listed.enabled &&
      listed.state.nextRunAtMs !== undefined &&
      listed.state.nextRunAtMs <= now &&
      catchUp === "off";
    const unscheduled =
      listed.enabled && listed.state.nextRunAtMs === undefined && listed.state.lastRunAtMs === undefined;
    if (seenRunning === undefined && !missed && !unscheduled) continue;
    const job = await store.claim(listed.id, now, claimer.owner, claimer.leaseMs);
    if (!job) continue; // gone, or held by a live owner: its run is not interrupted
    // the listing is older than the claim: a run seen there may have finished and been recorded
    // since (by a live process, whose claim had ended), and then it was not cut off
    const finishedSince = (job.state.lastRunAtMs ?? Number.NEGATIVE_INFINITY) >= (seenRunning ?? 0);
    const crashed = finishedSince ? undefined : seenRunning;
    const before = { ...job.state };
    const state: CronJobState = { ...job.state };
    delete state.runningAtMs;
    let disable = false;
    try {
      if (crashed !== undefined) {
        const last = (await store.readRuns(job.id, { limit: 1 })).entries[0];
        // a run under this claim started at the claim or later: a job claimed in a batch waits
        // for a run slot, so its run starts after the claim's time (which runningAtMs holds)
        if (last && (last.runAtMs ?? Number.NEGATIVE_INFINITY) >= crashed && last.status !== "interrupted") {
          disable = restoreFromLog(state, last).disable;
        } else {
          await store.appendRun({
            ts: now,
            jobId: job.id,
            action: "finished",
            status: "interrupted",
            error: INTERRUPTED_ERROR,
            runAtMs: crashed,
            ...(job.sessionKey ? { sessionKey: job.sessionKey } : {}),
          });
          state.lastRunAtMs = crashed;
          state.lastRunStatus = "interrupted";
          state.lastError = INTERRUPTED_ERROR;
        }
      }
      if (job.enabled && state.nextRunAtMs === undefined && state.lastRunAtMs === undefined) {
        const next = safeNextRun(job, now);
        if (next !== undefined) state.nextRunAtMs = next;
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
      }
    } finally {
      // keys that recovery dropped are released as undefined, which removes them
      const next: Partial<CronJobState> = { ...state };
      for (const key of Object.keys(before) as Array<keyof CronJobState>)
        if (!(key in state)) next[key] = undefined as never;
      await store.release(job.id, claimer.owner, next, { disable });
    }
  }
}
