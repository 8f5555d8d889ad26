import { type AnyAgentTool, Type } from "@clawtools/core";
import type { AgentRunner } from "@clawtools/core/contracts";
import { itLacks, type StepRun } from "./lacked-step.js";
import { afterAll, beforeAll, describe, expect, it } from "./vitest-api.js";
import { type ConformanceModel, ScriptedConformanceModel } from "./agent-runner-model.js";

/*
 * The behaviour every AgentRunner must have (the scripted runner, runner-pi, runner-pi-core, the
 * AI SDK runner, runner-acp): a run answers, `wait` gives up without ending it, abort ends it,
 * steer reaches the model, unknown run ids are told apart, two runs stay apart, and a tool call
 * reaches its tool and its result the model. Declared as vitest blocks, one `it` per step:
 *
 *   agentRunnerConformance({ setup: async ({ model, tools }) => ({ runner: myRunner(model, tools) }) });
 *
 * `model` is the suite's scripted model (see agent-runner-model.ts): the harness puts it behind
 * the runner's model wire.
 */

export interface AgentRunnerUnderTest {
  runner: AgentRunner;
  /** Makes the session a run starts in (a store row), when the runner needs one. */
  createSession?(sessionKey: string): Promise<void>;
  /** Releases what setup made (servers, processes, directories). */
  close?(): Promise<void>;
}

export interface AgentRunnerUnderTestSetup {
  /** The model the runner's runs must talk to. */
  model: ConformanceModel;
  /** The tools the runner gives its runs (when it takes tools). */
  tools: AnyAgentTool[];
}

export interface AgentRunnerConformanceOptions {
  /** The describe block's name (default "AgentRunner conformance"). */
  name?: string;
  /** Skips the whole suite, with this reason (a Node this runner does not run on). */
  skip?: string | false;
  /** The runner puts steered messages into its runs (default true); false: as `lacks.steer`. */
  steer?: boolean;
  /** The runner gives its runs the tools it is made with (default true); false: as `lacks.tools`. */
  tools?: boolean;
  /**
   * Steps the runner declares it cannot do, each with the reason: `steer`, `tools` (as
   * `steer: false` / `tools: false`, with a reason), `concurrent` (two runs at once). Each runs
   * as an expected failure, after the other steps, within `lackedStepMs`: the test fails (`step
   * "steer" now passes: remove it from lacks`) once the runner does it.
   */
  lacks?: Partial<Record<RunnerStep, string>>;
  /** How long a lacked step runs before running out of time counts as its failure (default 5 s). */
  lackedStepMs?: number;
  /** How long the suite waits for a run to end (default 30 s); a runner whose turns are slow raises it. */
  waitMs?: number;
  /** Each step's test time limit (default vitest's); raise it with `waitMs`. */
  stepTimeoutMs?: number;
  /** `setup`'s time limit (default vitest's hook limit): a runner that boots a server raises it. */
  setupTimeoutMs?: number;
  /** The session key of the suite's n-th run (default `agent:main:subagent:conformance-<n>`). */
  sessionKey?(n: number): string;
  setup(deps: AgentRunnerUnderTestSetup): Promise<AgentRunnerUnderTest>;
}

/** The steps a runner may declare it lacks (`lacks`). */
export type RunnerStep = "steer" | "tools" | "concurrent";

/** Why the runner lacks `step`, or undefined when it has it. */
function lacking(options: AgentRunnerConformanceOptions, step: RunnerStep): string | undefined {
  const reason = options.lacks?.[step];
  if (reason) return reason;
  if (step === "steer" && options.steer === false) return "the runner takes no steered messages";
  if (step === "tools" && options.tools === false) return "the runner does not run the suite's tools";
  return undefined;
}

/** Declares the AgentRunner conformance steps for one runner. */
export function agentRunnerConformance(options: AgentRunnerConformanceOptions): void {
  const name = options.name ?? "AgentRunner conformance";
  if (options.skip) {
    describe.skip(`${name} (${options.skip})`, () => it("skipped", () => {}));
    return;
  }
  const WAIT_MS = options.waitMs ?? 30_000;
  const timeout = options.stepTimeoutMs;
  const lacked: Array<() => void> = [];
  /**
   * A step, given the longest it may wait for a run; or (when the runner lacks it) the step as an
   * expected failure with a short wait, declared after the others.
   */
  const step = (lacks: RunnerStep | undefined, title: string, fn: (run: StepRun) => Promise<void>) => {
    const reason = lacks && lacking(options, lacks);
    if (!reason) return it(title, (ctx) => fn({ signal: ctx.signal, waitMs: WAIT_MS, ctx }), timeout);
    const ms = options.lackedStepMs;
    lacked.push(() => itLacks({ suite: name, step: lacks, reason, title, ms }, fn));
  };
  describe(name, () => {
    const model = new ScriptedConformanceModel();
    const toolCalls: unknown[] = [];
    const echo = {
      name: "conformance_echo",
      description: "Answers with the text it is given",
      parameters: Type.Object({ text: Type.String() }),
      execute: async (_id: string, params: { text: string }) => {
        toolCalls.push(params);
        return { content: [{ type: "text", text: `echo:${params.text}` }], details: { text: params.text } };
      },
    } as AnyAgentTool;
    let subject: AgentRunnerUnderTest;
    let n = 0;
    const sessionKey = (i: number) => options.sessionKey?.(i) ?? `agent:main:subagent:conformance-${i}`;

    /** Starts a run in a new session of its own. */
    async function start(message: string): Promise<string> {
      const key = sessionKey(++n);
      await subject.createSession?.(key);
      return (await subject.runner.start({ sessionKey: key, message })).runId;
    }

    beforeAll(async () => {
      subject = await options.setup({ model, tools: [echo] });
    }, options.setupTimeoutMs);
    afterAll(async () => {
      model.releaseAll();
      await subject?.close?.();
    });

    step(undefined, "a run answers with text and wait returns it", async ({ waitMs }) => {
      const runId = await start("say hello from the model");
      expect(await subject.runner.wait(runId, waitMs)).toMatchObject({
        status: "ok",
        reply: "hello from the model",
      });
    });

    step(
      undefined,
      "wait with a timeout on a run that has not ended answers running, and the run goes on",
      async ({ signal, waitMs }) => {
        const runId = await start("hold slow");
        await model.asked("slow", signal);
        expect(await subject.runner.wait(runId, 1)).toEqual({ status: "running" });
        model.release("slow");
        expect(await subject.runner.wait(runId, waitMs)).toMatchObject({
          status: "ok",
          reply: "released slow",
        });
      },
    );

    step(undefined, "abort ends a running run as aborted, and wait says so", async ({ signal, waitMs }) => {
      const runId = await start("hold stuck");
      await model.asked("stuck", signal);
      await subject.runner.abort(runId);
      expect((await subject.runner.wait(runId, waitMs)).status).toBe("aborted");
      expect(await subject.runner.steer(runId, "too late")).toBe(false);
    });

    step(
      "steer",
      "steer puts a message into a running run and the model sees it; an ended run refuses",
      async ({ signal, waitMs }) => {
        const runId = await start("hold steered");
        await model.asked("steered", signal);
        expect(await subject.runner.steer(runId, "a steered note")).toBe(true);
        model.release("steered");
        expect((await subject.runner.wait(runId, waitMs)).status).toBe("ok");
        expect(model.seen.has("a steered note")).toBe(true);
        expect(await subject.runner.steer(runId, "after the end")).toBe(false);
      },
    );

    step(
      undefined,
      "an unknown run id: wait errors naming it, steer refuses, abort does not hang",
      async () => {
        const outcome = await subject.runner.wait("no-such-run", 1);
        expect(outcome.status).toBe("error");
        expect(outcome.error).toContain("no-such-run");
        expect(await subject.runner.steer("no-such-run", "hello")).toBe(false);
        // an abort of an unknown run either does nothing or errors naming the run
        await subject.runner.abort("no-such-run").catch((error: Error) => {
          expect(error.message).toContain("no-such-run");
        });
      },
    );

    step(
      "concurrent",
      "two runs at once stay apart: each ends with its own answer, in its own time",
      async ({ signal, waitMs }) => {
        const first = await start("hold first");
        const second = await start("hold second");
        expect(first).not.toBe(second);
        await Promise.all([model.asked("first", signal), model.asked("second", signal)]);
        model.release("second");
        expect(await subject.runner.wait(second, waitMs)).toMatchObject({
          status: "ok",
          reply: "released second",
        });
        expect(await subject.runner.wait(first, 1)).toEqual({ status: "running" });
        model.release("first");
        expect(await subject.runner.wait(first, waitMs)).toMatchObject({
          status: "ok",
          reply: "released first",
        });
      },
    );

    step(
      "tools",
      "a tool call inside a run reaches the given tool, and its result reaches the model",
      async ({ waitMs }) => {
        const runId = await start('tool conformance_echo {"text":"ping"}');
        expect(await subject.runner.wait(runId, waitMs)).toMatchObject({
          status: "ok",
          reply: "tool said: echo:ping",
        });
        expect(toolCalls).toEqual([{ text: "ping" }]);
      },
    );

    for (const declare of lacked) declare();
  });
}
