import type { AnyAgentTool } from "@clawtools/core";
import { type Clock, systemClock } from "@clawtools/core/time";
import {
  type AgentRunner,
  armTimeLimit,
  RunTable,
  settleTurn,
  type SessionRun,
  type SessionStore,
  type StartRunRequest,
  type TrackedRun,
  TranscriptWriter,
  type TranscriptMessage,
} from "@clawtools/core/contracts";
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from "ai";
import { stepMessages, toModelMessages } from "./messages.js";
import { toAiSdkTools } from "./tools.js";

/** The tools of one run, built per run (so a run's processes die with it) and released after. */
export interface RunTools {
  tools: AnyAgentTool[];
  dispose?(): Promise<void>;
}

export interface AiSdkRunnerOptions {
  store: SessionStore;
  /** The model runs use. */
  model: LanguageModel;
  /** A session's own model (`provider/model`, from session_status or the spawn) as a LanguageModel; without it every run uses `model`. */
  resolveModel?: (id: string) => LanguageModel;
  /** The tools of a run in `sessionKey` (a clawtools toolset whose ctx.sessionKey is that session). */
  tools?: (sessionKey: string) => RunTools | Promise<RunTools>;
  system?: string;
  /** Model calls per run at most (default 20). */
  maxSteps?: number;
  /** How many stored messages a run starts from (default 200). */
  historyLimit?: number;
  /** The clock of runs' time limits (default: the system's). */
  clock?: Clock;
}

/** A run's state; `yielded` (set by sessions_yield) means no further step once the tool calls in flight return. */
interface ActiveRun extends SessionRun {
  controller: AbortController;
  steers: ModelMessage[];
  timedOut: boolean;
}

const DEFAULT_SYSTEM =
  "You are an agent working on a task. Use the tools you have. When you are done, answer with the result in plain text.";

const modelName = (model: LanguageModel) =>
  typeof model === "string" ? model : `${model.provider}/${model.modelId}`;

/**
 * An AgentRunner over the Vercel AI SDK's `generateText` with tool steps: each run loads the
 * session's transcript from the store, runs the model with a clawtools toolset (through
 * `toAiSdkTools`), and appends every step's messages to the store as the step ends, in the same
 * pi format `@clawtools/runner-pi` writes. Steered messages join the conversation before the next
 * step.
 */
export function createAiSdkRunner(options: AiSdkRunnerOptions): AgentRunner & {
  /** The runs held while they run and the outcomes kept after (empty once every run has ended and aged out). */
  readonly table: RunTable<TrackedRun>;
} {
  // a run's state is held while it runs and released when it ends (outcomes stay for a late wait)
  const runs = new RunTable<ActiveRun>();
  const clock = options.clock ?? systemClock;

  /** Builds the run and starts it. */
  async function startRun(request: StartRunRequest): Promise<ActiveRun> {
    const session = await options.store.get(request.sessionKey);
    const override = request.model ?? session?.model;
    const model = override && options.resolveModel ? options.resolveModel(override) : options.model;
    const history = await options.store.history(request.sessionKey, { limit: options.historyLimit ?? 200 });
    const runTools = (await options.tools?.(request.sessionKey)) ?? { tools: [] };
    const user: TranscriptMessage = { role: "user", content: request.message, timestamp: Date.now() };
    await options.store.append(request.sessionKey, [user]);
    const active: ActiveRun = {
      controller: new AbortController(),
      steers: [],
      timedOut: false,
      done: Promise.resolve({ status: "ok" }),
    };
    const disarm = armTimeLimit(clock, request.timeoutMs, () => {
      active.timedOut = true;
      active.controller.abort();
    });
    const writes = new TranscriptWriter(options.store, request.sessionKey);
    active.done = settleTurn(
      async () => {
        let messages: ModelMessage[] = [
          ...toModelMessages(history),
          { role: "user", content: request.message },
        ];
        let delivered = 0; // how many steered messages the latest step's request carried
        for (;;) {
          const result = await generateText({
            model,
            system: [options.system ?? DEFAULT_SYSTEM, request.extraSystemPrompt]
              .filter(Boolean)
              .join("\n\n"),
            messages,
            tools: toAiSdkTools(runTools.tools),
            // a yield ends the run after the step whose tool calls it came from
            stopWhen: [stepCountIs(options.maxSteps ?? 20), () => active.yielded !== undefined],
            abortSignal: active.controller.signal,
            // steered messages join every later step (prepareStep's messages last one step)
            prepareStep: ({ messages: current }) => {
              delivered = active.steers.length;
              return delivered > 0 ? { messages: [...current, ...active.steers] } : undefined;
            },
            onStepFinish: (step) => {
              const produced = stepMessages(step, modelName(model));
              void writes.append(produced);
            },
          });
          // a message steered in during the final step reached no request: one more call answers it
          if (active.steers.length === delivered || active.yielded !== undefined || active.timedOut) {
            await writes.settled();
            if (active.timedOut) return { status: "timeout", reply: result.text };
            if (active.yielded !== undefined)
              return { status: "ok", reply: result.text.trim() || active.yielded, yielded: true };
            return { status: "ok", reply: result.text.trim() };
          }
          messages = [...messages, ...result.response.messages];
        }
      },
      async (error) => {
        await writes.settled().catch(() => {});
        if (active.timedOut) return { status: "timeout", error: "timed out" };
        if (active.controller.signal.aborted) return { status: "aborted", error: "aborted" };
        return { status: "error", error: error.message };
      },
      { disarm, tools: runTools },
    );
    return active;
  }

  return runs.agentRunner({
    start: startRun,
    stop: (run) => run.controller.abort(),
    steer: (run, message) => run.steers.push({ role: "user", content: message }),
  });
}
