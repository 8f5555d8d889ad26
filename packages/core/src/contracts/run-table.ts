import type { RunOutcome } from "./agent-runner.js";
import { type TrackedRun, waitForRun } from "./run-wait.js";

/** How many ended runs' outcomes a runner keeps for a late `wait` (the store keeps the rest). */
export const RECENT_OUTCOMES = 256;

/**
 * The run table of an in-process runner: a run's state (its agent, messages, tools) is held only
 * while it runs and released when it ends; its outcome stays in a small bounded cache so `wait`
 * on a run that just ended still answers. A runner that kept every run grew by its history per run.
 */
export class RunTable<R extends TrackedRun> {
  private readonly live = new Map<string, R>();
  private readonly ended = new Map<string, RunOutcome>();

  constructor(private readonly keep = RECENT_OUTCOMES) {}

  /** Holds the run until its `done` settles. */
  add(runId: string, run: R): void {
    this.live.set(runId, run);
    void run.done.then(
      (outcome) => this.release(runId, outcome),
      (error: unknown) =>
        this.release(runId, { status: "error", error: (error as Error)?.message ?? String(error) }),
    );
  }

  private release(runId: string, outcome: RunOutcome): void {
    this.live.delete(runId);
    this.ended.delete(runId);
    this.ended.set(runId, outcome);
    for (const oldest of this.ended.keys()) {
      if (this.ended.size <= this.keep) break;
      this.ended.delete(oldest);
    }
  }

  /** A run that is still running (its state), else undefined. */
  get(runId: string): R | undefined {
    return this.live.get(runId);
  }

  /** `AgentRunner.wait`: a running run's outcome (or `running` at the timeout), an ended run's from the cache. */
  wait(runId: string, timeoutMs: number): Promise<RunOutcome> {
    const run = this.live.get(runId);
    if (run) return waitForRun(run, runId, timeoutMs);
    const outcome = this.ended.get(runId);
    return Promise.resolve(outcome ?? { status: "error", error: `Unknown run: ${runId}` });
  }

  /** Runs held now (running), and ended outcomes cached. */
  get size(): { live: number; ended: number } {
    return { live: this.live.size, ended: this.ended.size };
  }
}
