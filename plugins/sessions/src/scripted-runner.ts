import { systemClock } from "@clawtools/core/time";
import { RECENT_OUTCOMES, RunTable } from "./run-table.js";
import type { TrackedRun } from "./run-wait.js";
import type { AgentRunner, RunOutcome, SessionStore, StartRunRequest } from "./interfaces.js";

/** What a scripted turn sees: the run, the messages steered into it so far, and its abort signal. */
export interface ScriptedTurn {
  runId: string;
  sessionKey: string;
  message: string;
  extraSystemPrompt?: string;
  model?: string;
  /** Messages steered into the run while it runs (announces and `subagents steer`). */
  steers: string[];
  signal: AbortSignal;
}

export interface ScriptedRunnerOptions {
  store: SessionStore;
  /** The run's answer (thrown: the run fails with that message). Default: `Done: <message>`. */
  script?: (turn: ScriptedTurn) => string | Promise<string>;
  /** Given: sessions_yield is supported and calls this. */
  onYield?: (sessionKey: string, message: string) => Promise<void>;
  /** Run ids: default `run-<n>`. */
  newRunId?: () => string;
}

interface Run {
  turn: ScriptedTurn;
  controller: AbortController;
  done: Promise<RunOutcome>;
  outcome?: RunOutcome;
}

/**
 * An AgentRunner with no model: each run appends the user message to the session, asks the
 * script for the answer and appends it as the assistant's. For tests, benchmarks and apps that
 * drive sessions without a model; the real loops are `@clawtools/runner-pi` and `@clawtools/ai-sdk`.
 */
export function createScriptedRunner(options: ScriptedRunnerOptions): AgentRunner & {
  /** The turns of the runs started lately (the newest 256), by id. */
  readonly runs: ReadonlyMap<string, ScriptedTurn>;
  /** Runs held while they run, and ended outcomes kept for `wait`. */
  readonly table: RunTable<TrackedRun>;
} {
  const runs = new RunTable<Run>();
  const turns = new Map<string, ScriptedTurn>();
  let n = 0;
  const script = options.script ?? ((t: ScriptedTurn) => `Done: ${t.message}`);
  const runner: AgentRunner & {
    readonly runs: ReadonlyMap<string, ScriptedTurn>;
    readonly table: RunTable<TrackedRun>;
  } = {
    runs: turns,
    table: runs,
    async start(request: StartRunRequest) {
      const runId = options.newRunId?.() ?? `run-${++n}`;
      const controller = new AbortController();
      const turn: ScriptedTurn = {
        runId,
        sessionKey: request.sessionKey,
        message: request.message,
        ...(request.extraSystemPrompt ? { extraSystemPrompt: request.extraSystemPrompt } : {}),
        ...(request.model ? { model: request.model } : {}),
        steers: [],
        signal: controller.signal,
      };
      await options.store.append(request.sessionKey, [
        { role: "user", content: request.message, timestamp: Date.now() },
      ]);
      let timedOut = false;
      const timer = request.timeoutMs
        ? systemClock.setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, request.timeoutMs)
        : undefined;
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
      );
      aborted.catch(() => {});
      const run: Run = {
        turn,
        controller,
        done: (async (): Promise<RunOutcome> => {
          try {
            const reply = await Promise.race([Promise.resolve().then(() => script(turn)), aborted]);
            await options.store.append(request.sessionKey, [
              { role: "assistant", content: [{ type: "text", text: reply }], timestamp: Date.now() },
            ]);
            return { status: "ok", reply };
          } catch (error) {
            if (timedOut) return { status: "timeout", error: "timed out" };
            if (controller.signal.aborted) return { status: "aborted", error: "aborted" };
            return { status: "error", error: (error as Error).message };
          } finally {
            if (timer) systemClock.clearTimeout(timer);
          }
        })(),
      };
      void run.done.then((outcome) => {
        run.outcome = outcome;
      });
      runs.add(runId, run);
      turns.set(runId, turn);
      // the turns are for inspection: only the newest are kept
      for (const oldest of turns.keys()) {
        if (turns.size <= RECENT_OUTCOMES) break;
        turns.delete(oldest);
      }
      return { runId };
    },
    wait: (runId, timeoutMs) => runs.wait(runId, timeoutMs),
    async abort(runId) {
      const run = runs.get(runId);
      if (!run || run.outcome) return;
      run.controller.abort();
      await run.done;
    },
    async steer(runId, message) {
      const run = runs.get(runId);
      if (!run || run.outcome) return false;
      run.turn.steers.push(message);
      return true;
    },
  };
  if (options.onYield) runner.onYield = options.onYield;
  return runner;
}
