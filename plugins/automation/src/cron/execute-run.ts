import { recordRun, settleRun } from "./outcome.js";
import type { RunEnd, SchedulerOptions } from "./scheduler-options.js";
import type { CronJob } from "./types.js";

/**
 * Runs a claimed job, delivers its outcome and settles it. Recording does not hold the run's
 * slot: the next due job starts while this one's log line and state are written. The job keeps
 * its claim until the record is complete, so it cannot be claimed again before; then `recorded`
 * is told the job's next time (known here: no store round trip), or undefined when it has none.
 */
export async function executeRun(
  o: Pick<SchedulerOptions, "clock" | "executor" | "store" | "owner">,
  job: CronJob,
  runId: string,
  hooks: { track: <T>(promise: Promise<T>) => Promise<T>; recorded: (next: number | undefined) => void },
): Promise<RunEnd> {
  const { clock, executor, store } = o;
  const runAtMs = clock.now();
  const result = await executor.run(job, runId, runAtMs);
  const delivery =
    result.status === "skipped"
      ? { delivered: false, deliveryStatus: "not-requested" as const }
      : await executor.deliver(job, result, runAtMs, clock.now() - runAtMs);
  const outcome = settleRun(job, { runId, runAtMs, endMs: clock.now() }, result, delivery);
  const next = outcome.remove || outcome.disable ? undefined : outcome.state.nextRunAtMs;
  void hooks.track(recordRun(store, o.owner, job.id, outcome).then(() => hooks.recorded(next)));
  return {
    runId,
    status: outcome.status,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.summary !== undefined ? { summary: outcome.summary } : {}),
  };
}
