import { type AnyAgentTool, type Clock, redactSecrets, systemClock } from "@clawtools/core";
import { type ModelSpec, modelFailure, resolveModel, withModel } from "@clawtools/models";
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
  turnOutcome,
} from "@clawtools/core/contracts";
import { Agent, type AgentMessage } from "@mariozechner/pi-agent-core";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { toPiTool } from "./tools.js";

/** The tools a run gets, built per run (so a run's processes die with it) and released after. */
export interface RunTools {
  tools: AnyAgentTool[];
  dispose?(): Promise<void>;
}

export interface PiRunnerOptions {
  store: SessionStore;
  /** The model runs use unless the run (or the session) names another: `provider/model` or a full spec. */
  model: string | ModelSpec;
  /** The tools of a run in `sessionKey` (a clawtools toolset whose ctx.sessionKey is that session). */
  tools?: (sessionKey: string) => RunTools | Promise<RunTools>;
  systemPrompt?: string;
  /** How many stored messages a run starts from (default 200). */
  historyLimit?: number;
  /** The clock of runs' time limits (default: the system's). */
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
}

/** A run's state; `yielded` (set by sessions_yield) ends the turn once the tool calls in flight return. */
interface ActiveRun extends SessionRun {
  agent: Agent;
  timedOut: boolean;
}

const DEFAULT_PROMPT =
  "You are an agent working on a task. Use the tools you have. When you are done, answer with the result in plain text.";

const textOf = (m: AssistantMessage) =>
  m.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("")
    .trim();

/** Messages as pi-ai takes them: only user, assistant and toolResult, without clawtools' bookkeeping. */
function toAgentMessages(history: TranscriptMessage[]): AgentMessage[] {
  return history
    .filter((m) => m.role === "user" || m.role === "assistant" || m.role === "toolResult")
    .map(({ internal: _i, ...m }) => m as unknown as AgentMessage);
}

/**
 * An AgentRunner over pi-agent-core (the loop OpenClaw runs): each run loads the session's
 * transcript from the store, runs the model with a clawtools toolset, and appends every message
 * it produces back to the store as it is produced.
 */
export function createPiRunner(options: PiRunnerOptions): AgentRunner & {
  /** The runs held while they run and the outcomes kept after (empty once every run has ended and aged out). */
  readonly table: RunTable<TrackedRun>;
} {
  // a run's state is held while it runs and released when it ends (outcomes stay for a late wait)
  const runs = new RunTable<ActiveRun>();
  const clock = options.clock ?? systemClock;
  const base: ModelSpec = typeof options.model === "string" ? { model: options.model } : options.model;

  /** Builds the run's agent and starts its turn. */
  async function startRun(request: StartRunRequest): Promise<ActiveRun> {
    const session = await options.store.get(request.sessionKey);
    // a run's own model keeps the configured key and endpoint only for the same provider
    const named = request.model ?? session?.model;
    const spec = named ? withModel(base, named) : base;
    const resolved = resolveModel(spec, options.env);
    const history = await options.store.history(request.sessionKey, { limit: options.historyLimit ?? 200 });
    const runTools = (await options.tools?.(request.sessionKey)) ?? { tools: [] };
    let active!: ActiveRun;
    const agent = new Agent({
      initialState: {
        systemPrompt: [options.systemPrompt ?? DEFAULT_PROMPT, request.extraSystemPrompt]
          .filter(Boolean)
          .join("\n\n"),
        model: resolved.model,
        thinkingLevel: "off",
        tools: runTools.tools.map(toPiTool),
        messages: toAgentMessages(history),
      },
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
        const last = [...agent.state.messages]
          .reverse()
          .find((m) => (m as AssistantMessage).role === "assistant") as AssistantMessage | undefined;
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
