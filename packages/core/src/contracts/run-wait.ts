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
): Promise<RunOutcome> {
  if (!run) return { status: "error", error: `Unknown run: ${runId}` };
  if (run.outcome) return run.outcome;
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<RunOutcome>((resolve) => {
    // setTimeout overflows past 2^31-1 ms and fires at once; clamp just under it.
    timer = setTimeout(() => resolve({ status: "running" }), Math.min(timeoutMs, 2_147_000_000));
  });
  try {
    return await Promise.race([run.done, pending]);
  } finally {
    clearTimeout(timer);
  }
}
