import { type AnyAgentTool, type Clock, redactSecrets, systemClock } from "@clawtools/core";
import {
  type AgentRunner,
  armTimeLimit,
  RunTable,
  settleTurn,
  type SessionRun,
  type SessionStore,
  type StartRunRequest,
  TranscriptWriter,
  turnOutcome,
} from "@clawtools/core/contracts";
import { type ModelSpec, modelFailure, resolveModel, withModel } from "@clawtools/models";
import { Agent } from "@earendil-works/pi-agent-core";
import type { Api, Model } from "@earendil-works/pi-ai";
import { streamSimple } from "@earendil-works/pi-ai/compat";
import { lastAssistant, textOf, toAgentMessages } from "./messages.js";
import { toPiCoreTool } from "./tools.js";

/** The tools a run gets, built per run (so a run's processes die with it) and released after. */
export interface RunTools {
  tools: AnyAgentTool[];
  dispose?(): Promise<void>;
}

export interface PiCoreRunnerOptions {
  store: SessionStore;
  /** The model runs use unless the run (or the session) names another: `provider/model` or a full spec. */
  model: string | ModelSpec;
  /** The tools of a run in `sessionKey` (a clawtools toolset whose ctx.sessionKey is that session). */
  tools?: (sessionKey: string) => RunTools | Promise<RunTools>;
  systemPrompt?: string;
  /** How many stored messages a run starts from (default 200). */
  historyLimit?: number;
  env?: NodeJS.ProcessEnv;
  /** The clock of runs' time limits (default: the system's). */
  clock?: Clock;
}

/** A run's state; `yielded` (set by sessions_yield) ends the turn once the tool calls in flight return. */
interface ActiveRun extends SessionRun {
  agent: Agent;
  timedOut: boolean;
}

const DEFAULT_PROMPT =
  "You are an agent working on a task. Use the tools you have. When you are done, answer with the result in plain text.";

/**
 * An AgentRunner over @earendil-works/pi-agent-core 1.5 (pi's loop after its move; Node >= 22.19):
 * each run loads the session's transcript from the store, runs the model with a clawtools toolset
 * whose `details` travel as pi's structured results, and appends every message it produces back
 * to the store as it is produced, in the same transcript format as `@clawtools/runner-pi`.
 */
export function createPiCoreRunner(options: PiCoreRunnerOptions): AgentRunner & {
  /** The runs held while they run and the outcomes kept after (empty once every run has ended and aged out). */
  readonly table: RunTable<SessionRun>;
} {
  const runs = new RunTable<ActiveRun>();
  const base: ModelSpec = typeof options.model === "string" ? { model: options.model } : options.model;
  const clock = options.clock ?? systemClock;

  /** Builds the run's agent and starts its turn. */
  async function startRun(request: StartRunRequest): Promise<ActiveRun> {
    const session = await options.store.get(request.sessionKey);
    // a run's own model keeps the configured key and endpoint only for the same provider
    const named = request.model ?? session?.model;
    const resolved = resolveModel(named ? withModel(base, named) : base, options.env);
    const history = await options.store.history(request.sessionKey, { limit: options.historyLimit ?? 200 });
    const runTools = (await options.tools?.(request.sessionKey)) ?? { tools: [] };
    let active!: ActiveRun;
    const agent = new Agent({
      initialState: {
        systemPrompt: [options.systemPrompt ?? DEFAULT_PROMPT, request.extraSystemPrompt]
          .filter(Boolean)
          .join("\n\n"),
        // @clawtools/models describes the endpoint in the fields both pi-ai majors read
        model: resolved.model as unknown as Model<Api>,
        thinkingLevel: "off",
        tools: runTools.tools.map(toPiCoreTool),
        messages: toAgentMessages(history),
      },
      streamFn: streamSimple,
      getApiKey: () => resolved.apiKey ?? "unset",
      sessionId: session?.sessionId ?? request.sessionKey,
      // a yield ends the turn after the tool calls in flight (pi's terminate: no further model call)
      afterToolCall: async () => (active.yielded !== undefined ? { terminate: true } : undefined),
    });
    // every message lands in the session as it is produced (a crash loses at most the one in flight)
    const writes = new TranscriptWriter(options.store, request.sessionKey);
    agent.subscribe((event) =>
      event.type === "message_end" ? writes.appendStamped(event.message as object) : undefined,
    );
    active = { agent, timedOut: false, done: Promise.resolve({ status: "ok" }) };
    const disarm = armTimeLimit(clock, request.timeoutMs, () => {
      active.timedOut = true;
      agent.abort();
    });
    active.done = settleTurn(
      async () => {
        await agent.prompt(request.message);
        await writes.settled();
        const last = lastAssistant(agent.state.messages);
        const answer = last && {
          text: textOf(last),
          stopReason: last.stopReason,
          errorMessage: last.errorMessage,
        };
        // the provider's error can echo the key: run logs and announces get it redacted
        return turnOutcome(active, answer, (message) => modelFailure(resolved, message));
      },
      async (error) => {
        return {
          status: active.timedOut ? "timeout" : "error",
          error: redactSecrets(error.message),
        };
      },
      { disarm, tools: runTools },
    );
    return active;
  }

  return runs.agentRunner({
    start: startRun,
    stop: (run) => run.agent.abort(),
    steer: (run, message) => run.agent.steer({ role: "user", content: message, timestamp: Date.now() }),
  });
}
