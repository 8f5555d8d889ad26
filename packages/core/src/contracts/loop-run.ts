import type { AnyAgentTool } from "../tool.js";
import { redactSecrets } from "../safety/redact.js";
import { type Clock, systemClock } from "../time/index.js";
import type { AgentRunner, StartRunRequest } from "./agent-runner.js";
import { armTimeLimit, settleTurn, TranscriptWriter, type TurnAnswer, turnOutcome } from "./run-parts.js";
import { RunTable, type SessionRun } from "./run-table.js";
import type { SessionEntry, SessionStore } from "./session-store.js";
import type { TranscriptMessage } from "./transcript.js";

/**
 * A run of pi's agent loop, whichever package carries it (`@mariozechner/pi-agent-core` 0.x for
 * Node 20, `@earendil-works/pi-agent-core` 1.5 for Node 22+): both majors' `Agent` has this
 * shape, so the two runners share everything but building the agent.
 */

/** The tools a run gets, built per run (so a run's processes die with it) and released after. */
export interface RunTools {
  tools: AnyAgentTool[];
  dispose?(): Promise<void>;
}

/** What a pi-style runner is configured with besides its model. */
export interface LoopRunnerOptions {
  store: SessionStore;
  /** The clock of runs' time limits (default: the system's). */
  clock?: Clock;
  /** The tools of a run in `sessionKey` (a clawtools toolset whose ctx.sessionKey is that session). */
  tools?: (sessionKey: string) => RunTools | Promise<RunTools>;
  systemPrompt?: string;
  /** How many stored messages a run starts from (default 200). */
  historyLimit?: number;
}

/** A run's message as pi's loop takes it (pi-ai's user message) and as the session stores it. */
export type LoopPrompt = {
  role: "user";
  content: Array<{ type: "text"; text: string }>;
  timestamp: number;
};

/** The `Agent` of either pi-agent-core major, as far as a run drives it. */
export interface LoopAgent {
  /** pi's agent takes the prompt as a message too: the one already in the session is the one it runs. */
  prompt(message: LoopPrompt): Promise<unknown>;
  abort(): void;
  steer(message: { role: "user"; content: string; timestamp: number }): void;
  subscribe(listener: (event: { type: string; message?: unknown }) => void): unknown;
  readonly state: { readonly messages: readonly unknown[] };
}

/** A run's state; `yielded` (set by sessions_yield) ends the turn once the tool calls in flight return. */
export interface LoopRun<A extends LoopAgent> extends SessionRun {
  agent: A;
  timedOut: boolean;
}

/** What a run starts from: its session, its resolved model, its prompt, history and tools. */
export interface LoopStart<M> {
  session: SessionEntry | undefined;
  model: M;
  systemPrompt: string;
  /** The stored history as pi-ai takes it: user, assistant and toolResult, without clawtools' bookkeeping. */
  messages: object[];
  tools: RunTools;
}

const DEFAULT_PROMPT =
  "You are an agent working on a task. Use the tools you have. When you are done, answer with the result in plain text.";

/**
 * Reads what a run starts from out of the store and the runner's options. `resolve` gets the
 * model the run names (its own, else its session's) and runs before the tools are built, so a
 * model that does not resolve leaves no tools behind.
 */
export async function loadLoopStart<M>(
  options: LoopRunnerOptions,
  request: StartRunRequest,
  resolve: (named: string | undefined) => M,
): Promise<LoopStart<M>> {
  const session = await options.store.get(request.sessionKey);
  const model = resolve(request.model ?? session?.model);
  const history = await options.store.history(request.sessionKey, { limit: options.historyLimit ?? 200 });
  const tools = (await options.tools?.(request.sessionKey)) ?? { tools: [] };
  return {
    session,
    model,
    systemPrompt: [options.systemPrompt ?? DEFAULT_PROMPT, request.extraSystemPrompt]
      .filter(Boolean)
      .join("\n\n"),
    messages: loopMessages(history),
    tools,
  };
}

function loopMessages(history: TranscriptMessage[]): object[] {
  return history
    .filter((m) => m.role === "user" || m.role === "assistant" || m.role === "toolResult")
    .map(({ internal: _i, ...m }) => m);
}

interface AssistantLike {
  role: "assistant";
  content: ReadonlyArray<{ type: string; text?: string }>;
  stopReason?: string;
  errorMessage?: string;
}

/** The turn's last assistant message as its answer (its text trimmed), if there is one. */
function lastAnswer(messages: readonly unknown[]): TurnAnswer | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as AssistantLike;
    if (m.role !== "assistant") continue;
    const text = m.content
      .filter((c) => c.type === "text")
      .map((c) => c.text)
      .join("")
      .trim();
    return { text, stopReason: m.stopReason, errorMessage: m.errorMessage };
  }
  return undefined;
}

/** What a turn needs besides its agent. */
export interface LoopTurn {
  store: SessionStore;
  request: StartRunRequest;
  clock: Clock;
  tools: RunTools;
  /** The model's error as run logs and announces show it (the provider's error can echo the key). */
  failure: (message: string) => string;
  /**
   * The run's message, already in the session (`recordPrompt`): the agent runs it and its
   * message_end is not written again. Absent: the request's message, written when the loop emits it.
   */
  prompt?: LoopPrompt;
}

/**
 * Writes the run's message into its session and returns it as the agent will run it: a runner
 * that answers `start` after this has the message durable, so an acknowledged send survives a
 * kill -9 that comes right after the acknowledgement (pi's loop writes its prompt only once the
 * turn gets going, after `start` has answered).
 */
export async function recordPrompt(store: SessionStore, request: StartRunRequest): Promise<LoopPrompt> {
  const prompt: LoopPrompt = {
    role: "user",
    content: [{ type: "text", text: request.message }],
    timestamp: Date.now(),
  };
  await store.append(request.sessionKey, [prompt]);
  return prompt;
}

/**
 * Starts a run's turn on the agent `build` makes (it gets the run, so its `afterToolCall` can
 * end the turn once the run yielded): every message lands in the session as it is produced (a
 * crash loses at most the one in flight), the time limit aborts the agent, and `done` settles
 * with the outcome once the tools are released.
 */
export function startLoopTurn<A extends LoopAgent>(
  build: (run: SessionRun) => A,
  turn: LoopTurn,
): LoopRun<A> {
  const run = { timedOut: false, done: Promise.resolve({ status: "ok" }) } as unknown as LoopRun<A>;
  const agent = build(run);
  run.agent = agent;
  const writes = new TranscriptWriter(turn.store, turn.request.sessionKey);
  const prompt: LoopPrompt = turn.prompt ?? {
    role: "user",
    content: [{ type: "text", text: turn.request.message }],
    timestamp: Date.now(),
  };
  agent.subscribe((event) =>
    // the prompt given as recorded is in the session already
    event.type === "message_end" && !(turn.prompt && event.message === turn.prompt)
      ? writes.appendStamped(event.message as object)
      : undefined,
  );
  const disarm = armTimeLimit(turn.clock, turn.request.timeoutMs, () => {
    run.timedOut = true;
    agent.abort();
  });
  run.done = settleTurn(
    async () => {
      await agent.prompt(prompt);
      await writes.settled();
      return turnOutcome(run, lastAnswer(agent.state.messages), turn.failure);
    },
    async (error) => ({ status: run.timedOut ? "timeout" : "error", error: redactSecrets(error.message) }),
    { disarm, tools: turn.tools },
  );
  return run;
}

/** What a runner builds its agent from, for one run. */
export interface LoopAgentParts<M> {
  systemPrompt: string;
  /** The resolved model of the run. */
  model: M;
  messages: object[];
  tools: AnyAgentTool[];
  /** The session's id (else its key), pi's `sessionId`. */
  sessionId: string;
  /** pi's `afterToolCall`: a yield ends the turn after the tool calls in flight (no further model call). */
  afterToolCall: () => Promise<{ terminate: true } | undefined>;
}

/** What a pi runner does itself: resolve the model a run names, word its failure, build its agent. */
export interface LoopRunnerParts<M, A extends LoopAgent> {
  resolve(named: string | undefined): M;
  /** The model's error as run logs and announces show it (the provider's error can echo the key). */
  failure(model: M, message: string): string;
  agent(parts: LoopAgentParts<M>): A;
}

/**
 * An AgentRunner over pi's agent loop: each run loads the session's transcript from the store,
 * runs the agent `parts.agent` builds with the run's clawtools toolset, and appends every message
 * it produces back to the store as it is produced. Both pi runners are this, with their own agent.
 */
export function createLoopRunner<M, A extends LoopAgent>(
  options: LoopRunnerOptions,
  parts: LoopRunnerParts<M, A>,
): AgentRunner & { readonly table: RunTable<LoopRun<A>> } {
  // a run's state is held while it runs and released when it ends (outcomes stay for a late wait)
  const runs = new RunTable<LoopRun<A>>();
  const clock = options.clock ?? systemClock;
  return runs.agentRunner({
    async start(request) {
      const start = await loadLoopStart(options, request, parts.resolve);
      let prompt: LoopPrompt;
      try {
        prompt = await recordPrompt(options.store, request);
      } catch (error) {
        // the message is not in the session: no run, and nothing it would have held stays
        await start.tools.dispose?.().catch(() => {});
        throw error;
      }
      const build = (run: SessionRun) =>
        parts.agent({
          systemPrompt: start.systemPrompt,
          model: start.model,
          messages: start.messages,
          tools: start.tools.tools,
          sessionId: start.session?.sessionId ?? request.sessionKey,
          afterToolCall: async () => (run.yielded !== undefined ? { terminate: true } : undefined),
        });
      const failure = (message: string) => parts.failure(start.model, message);
      return startLoopTurn(build, {
        store: options.store,
        request,
        clock,
        tools: start.tools,
        failure,
        prompt,
      });
    },
    stop: (run) => run.agent.abort(),
    steer: (run, message) => run.agent.steer({ role: "user", content: message, timestamp: Date.now() }),
  });
}
