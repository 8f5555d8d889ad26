import { recordRun, settleRun } from "./outcome.js";
import type { RunEnd, SchedulerOptions } from "./scheduler-options.js";
import type { CronJob } from "./types.js";

/**
 * Runs a claimed job, delivers its outcome and settles it. The run's slot is held until its end
 * is durable (the run log line, or the release that removes the job), so after a crash only the
 * runs that were in flight run again; the release that stores the job's new state is written
 * while the next due job starts. The job keeps its claim until that release, so it cannot be
 * claimed again before; then `recorded` is told the job's next time (known here: no store round
 * trip), or undefined when it has none.
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
  const record = recordRun(store, o.owner, job.id, outcome);
  void hooks.track(record.done.then(() => hooks.recorded(next)));
  // a failed write is the record's to report (through `track`); the slot is free either way
  await record.ended.catch(() => {});
  return {
    runId,
    status: outcome.status,
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.summary !== undefined ? { summary: outcome.summary } : {}),
  };
}
