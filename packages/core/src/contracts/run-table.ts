import { randomUUID } from "node:crypto";
import type { AgentRunner, RunOutcome, StartRunRequest } from "./agent-runner.js";
import { type TrackedRun, waitForRun } from "./run-wait.js";

/** How many ended runs' outcomes a runner keeps for a late `wait` (the store keeps the rest). */
export const RECENT_OUTCOMES = 256;

/** A run of a session: `yielded` holds sessions_yield's message once the run's turn is to end. */
export interface SessionRun extends TrackedRun {
  yielded?: string;
}

/** What a loop adapter does itself: build and start a run, stop it, and put a message into it. */
export interface RunDriver<R extends SessionRun> {
  start(request: StartRunRequest): Promise<R>;
  stop(run: R): void;
  steer(run: R, message: string): void;
}

/**
 * The run table of an in-process runner: a run's state (its agent, messages, tools) is held only
 * while it runs and released when it ends; its outcome stays in a small bounded cache so `wait`
 * on a run that just ended still answers. A runner that kept every run grew by its history per run.
 * It also knows each session's live run, which is what sessions_yield, abort and steer act on:
 * every loop adapter shares this bookkeeping and keeps only what its loop does differently.
 */
export class RunTable<R extends SessionRun> {
  private readonly live = new Map<string, R>();
  private readonly ended = new Map<string, RunOutcome>();
  // the live (or starting) run of each session: sessions_yield ends that run's turn
  private readonly bySession = new Map<string, string>();

  constructor(private readonly keep = RECENT_OUTCOMES) {}

  /** Holds the run until its `done` settles. */
  add(runId: string, run: R): void {
    this.live.set(runId, run);
    void run.done.then(
      (outcome) => this.release(runId, run, outcome),
      (error: unknown) =>
        this.release(runId, run, {
          status: "error",
          error: (error as Error)?.message ?? String(error),
        }),
    );
  }

  /**
   * Starts a run in a session: the session's live run from now on (a yield while it is still
   * being built reaches it), held until it ends. When `build` throws, the session is left as it
   * was and the error goes to the caller.
   */
  async start(
    sessionKey: string,
    build: (runId: string) => Promise<R>,
    runId: string = randomUUID(),
  ): Promise<{ runId: string }> {
    if (this.live.has(runId)) throw new Error(`Run id already in use: ${runId}`);
    this.bySession.set(sessionKey, runId);
    const forget = () => {
      if (this.bySession.get(sessionKey) === runId) this.bySession.delete(sessionKey);
    };
    let run: R;
    try {
      run = await build(runId);
    } catch (error) {
      forget();
      throw error;
    }
    this.add(runId, run);
    void run.done.then(forget, forget);
    return { runId };
  }

  private release(runId: string, run: R, outcome: RunOutcome): void {
    run.outcome ??= outcome;
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
    const run = this.live.get(runId);
    return run && !run.outcome ? run : undefined;
  }

  /** `AgentRunner.canYield`: a run of this table is live (or starting) in the session. */
  canYield(sessionKey: string): boolean {
    return this.bySession.has(sessionKey);
  }

  /**
   * `AgentRunner.onYield`: marks the session's live run as yielded (the loop ends its turn once
   * the tool calls in flight return); throws when the session has no live run.
   */
  yieldTurn(sessionKey: string, message: string): R {
    const run = this.get(this.bySession.get(sessionKey) ?? "");
    if (!run) throw new Error(`No live run in session ${sessionKey} to yield`);
    run.yielded = message;
    return run;
  }

  /** `AgentRunner.abort`: stops a running run with the loop's own `stop` and waits for its end; an ended or unknown run is left alone. */
  async abort(runId: string, stop: (run: R) => void): Promise<void> {
    const run = this.get(runId);
    if (!run) return;
    stop(run);
    await run.done.catch(() => {});
  }

  /** The run a steered message can join: running and not yielded (a yielded run's next message starts its next turn instead). */
  steerable(runId: string): R | undefined {
    const run = this.get(runId);
    return run && run.yielded === undefined ? run : undefined;
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

  /**
   * The AgentRunner over this table: every loop adapter's start, wait, abort, steer and yield are
   * this bookkeeping around its own `driver`, written once here.
   */
  agentRunner(driver: RunDriver<R>): AgentRunner & { readonly table: RunTable<R> } {
    return {
      table: this,
      start: (request) => this.start(request.sessionKey, () => driver.start(request)),
      canYield: (sessionKey) => this.canYield(sessionKey),
      onYield: async (sessionKey, message) => void this.yieldTurn(sessionKey, message),
      wait: (runId, timeoutMs) => this.wait(runId, timeoutMs),
      abort: (runId) => this.abort(runId, (run) => driver.stop(run)),
      steer: async (runId, message) => {
        const run = this.steerable(runId);
        if (!run) return false;
        driver.steer(run, message);
        return true;
      },
    };
  }
}
