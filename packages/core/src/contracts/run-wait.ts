import type { Clock } from "../time/clock.js";
import { withTimeout } from "../time/timeout.js";
import type { RunOutcome } from "./agent-runner.js";

/** A run an in-process runner tracks: its end, and the outcome once it has ended. */
export interface TrackedRun {
  done: Promise<RunOutcome>;
  outcome?: RunOutcome;
}

/**
 * `AgentRunner.wait` for in-process runners: the outcome, or `{status: "running"}` when the run
 * has not ended within `timeoutMs` (the run goes on).
 */
export async function waitForRun(
  run: TrackedRun | undefined,
  runId: string,
  timeoutMs: number,
  clock?: Clock,
): Promise<RunOutcome> {
  if (!run) return { status: "error", error: `Unknown run: ${runId}` };
  if (run.outcome) return run.outcome;
  // a wait that is not a duration (NaN, negative) answers at once, as a zero wait
  const ms = Number.isNaN(timeoutMs) ? 0 : Math.max(timeoutMs, 0);
  return withTimeout(run.done, ms, { clock, onTimeout: (): RunOutcome => ({ status: "running" }) });
}
