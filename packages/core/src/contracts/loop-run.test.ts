import { describe, expect, it } from "vitest";
import { FakeClock } from "../testing/index.js";
import {
  createLoopRunner,
  type LoopAgent,
  type LoopAgentParts,
  loadLoopStart,
  startLoopTurn,
} from "./loop-run.js";
import type { SessionRun } from "./run-table.js";
import type { SessionStore } from "./session-store.js";
import type { TranscriptMessage } from "./transcript.js";

// The pi loop run both pi runners share (issue 24: one copy, not one per pi-agent-core major).

function memoryStore(history: TranscriptMessage[] = []) {
  const appended: TranscriptMessage[] = [];
  const store = {
    get: async () => ({ sessionId: "s-1", model: "openai/gpt-b" }),
    history: async () => history,
    append: async (_key: string, messages: TranscriptMessage[]) => {
      appended.push(...messages);
    },
  } as unknown as SessionStore;
  return { store, appended };
}

/** An agent shaped like pi's: `prompt` emits its messages as message_end events, in order. */
class ScriptedAgent implements LoopAgent {
  readonly state = { messages: [] as object[] };
  aborted = false;
  readonly steered: string[] = [];
  private listener: (event: { type: string; message?: unknown }) => void = () => {};
  constructor(private readonly script: (agent: ScriptedAgent) => Promise<object[]>) {}
  subscribe(listener: (event: { type: string; message?: unknown }) => void) {
    this.listener = listener;
  }
  abort() {
    this.aborted = true;
  }
  steer(message: { content: string }) {
    this.steered.push(message.content);
  }
  async prompt(prompt: object): Promise<void> {
    // pi's loop emits the prompt's message_end first, after a turn of its own
    await Promise.resolve();
    this.state.messages.push(prompt);
    this.listener({ type: "message_end", message: prompt });
    for (const message of await this.script(this)) {
      this.state.messages.push(message);
      this.listener({ type: "message_end", message });
    }
  }
}

const answer = (text: string, extra: object = {}) => ({
  role: "assistant",
  content: [
    { type: "thinking", thinking: "…" },
    { type: "text", text },
  ],
  timestamp: 1,
  ...extra,
});

describe("loadLoopStart", () => {
  it("resolves the named model before building tools: a model that fails leaves no tools behind", async () => {
    const { store } = memoryStore();
    let built = 0;
    const tools = async () => {
      built += 1;
      return { tools: [] };
    };
    const options = { store, tools };
    await expect(
      loadLoopStart(options, { sessionKey: "k", message: "hi" }, () => {
        throw new Error("unknown provider");
      }),
    ).rejects.toThrow("unknown provider");
    expect(built).toBe(0);
  });

  it("names the run's model over the session's, joins the prompts and drops clawtools' bookkeeping", async () => {
    const history: TranscriptMessage[] = [
      { role: "user", content: "a", timestamp: 1 },
      { role: "user", content: "done", timestamp: 2, internal: { kind: "completion", runId: "r" } },
    ];
    const { store } = memoryStore(history);
    const named: Array<string | undefined> = [];
    const start = await loadLoopStart(
      { store, systemPrompt: "Be brief." },
      { sessionKey: "k", message: "hi", extraSystemPrompt: "You are a sub-agent.", model: "openai/gpt-c" },
      (model) => named.push(model),
    );
    expect(named).toEqual(["openai/gpt-c"]);
    expect(start.systemPrompt).toBe("Be brief.\n\nYou are a sub-agent.");
    expect(start.messages).toEqual([
      { role: "user", content: "a", timestamp: 1 },
      { role: "user", content: "done", timestamp: 2 },
    ]);
    const fromSession = await loadLoopStart({ store }, { sessionKey: "k", message: "hi" }, (m) => m);
    expect(fromSession.model).toBe("openai/gpt-b");
    expect(fromSession.systemPrompt).toMatch(/^You are an agent working on a task/);
  });
});

describe("startLoopTurn", () => {
  const turn = (store: SessionStore, clock = new FakeClock(), timeoutMs?: number) => ({
    store,
    request: { sessionKey: "k", message: "hi", ...(timeoutMs ? { timeoutMs } : {}) },
    clock,
    tools: { tools: [] },
    failure: (message: string) => `model failed: ${message}`,
  });

  it("writes each message as it is produced and answers with the last assistant text", async () => {
    const { store, appended } = memoryStore();
    const run = startLoopTurn(
      () =>
        new ScriptedAgent(async () => [
          answer("first"),
          { role: "toolResult", content: [] },
          answer(" last "),
        ]),
      turn(store),
    );
    expect(await run.done).toEqual({ status: "ok", reply: "last" });
    expect(appended.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(appended[0]?.content).toEqual([{ type: "text", text: "hi" }]);
    expect(typeof appended[2]?.timestamp).toBe("number");
  });

  it("passes the model's error through `failure`, and a throw through redaction", async () => {
    const { store } = memoryStore();
    const failed = startLoopTurn(
      () => new ScriptedAgent(async () => [answer("", { stopReason: "error", errorMessage: "429" })]),
      turn(store),
    );
    expect(await failed.done).toEqual({ status: "error", error: "model failed: 429" });
    const thrown = startLoopTurn(
      () =>
        new ScriptedAgent(async () => {
          throw new Error("boom");
        }),
      turn(store),
    );
    expect(await thrown.done).toEqual({ status: "error", error: "boom" });
  });

  it("gives the builder the run, so a yield set on it reaches the agent's loop", async () => {
    const { store } = memoryStore();
    let seen: SessionRun | undefined;
    const run = startLoopTurn((r) => {
      seen = r;
      return new ScriptedAgent(async () => {
        r.yielded = "waiting for the child";
        return [answer("")];
      });
    }, turn(store));
    expect(seen).toBe(run);
    expect(await run.done).toEqual({ status: "ok", reply: "waiting for the child", yielded: true });
  });

  it("aborts the agent when the time limit passes and reports a timeout", async () => {
    const { store } = memoryStore();
    const clock = new FakeClock();
    let release!: () => void;
    const run = startLoopTurn(
      () =>
        new ScriptedAgent(async (agent) => {
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return agent.aborted ? [answer("partial", { stopReason: "aborted" })] : [];
        }),
      turn(store, clock, 1_000),
    );
    await Promise.resolve();
    clock.advance(1_000);
    expect(run.agent.aborted).toBe(true);
    release();
    expect(await run.done).toEqual({ status: "timeout", reply: "partial" });
  });
});

describe("createLoopRunner", () => {
  it("answers start only once the run's message is in the session (an acknowledged send survives a kill -9)", async () => {
    const { store, appended } = memoryStore();
    const runner = createLoopRunner(
      { store },
      {
        resolve: (named) => named,
        failure: (_model, message) => message,
        agent: () =>
          new ScriptedAgent(async () => {
            await new Promise(() => {}); // a model that never answers
            return [];
          }),
      },
    );
    const pending = runner.start({ sessionKey: "k", message: "remember this" });
    expect(appended).toEqual([]);
    await pending;
    // before the agent's loop has even emitted the prompt, it is in the session
    expect(appended).toEqual([
      { role: "user", content: [{ type: "text", text: "remember this" }], timestamp: expect.any(Number) },
    ]);
  });

  it("a message that cannot be written starts no run and releases the run's tools", async () => {
    let released = 0;
    let built = 0;
    const store = {
      ...memoryStore().store,
      append: async () => {
        throw new Error("disk full");
      },
    } as unknown as SessionStore;
    const runner = createLoopRunner(
      {
        store,
        tools: async () => ({
          tools: [],
          dispose: async () => {
            released += 1;
          },
        }),
      },
      {
        resolve: (named) => named,
        failure: (_model, message) => message,
        agent: () => {
          built += 1;
          return new ScriptedAgent(async () => [answer("never")]);
        },
      },
    );
    await expect(runner.start({ sessionKey: "k", message: "hi" })).rejects.toThrow("disk full");
    expect({ built, released, live: runner.table.size.live }).toEqual({ built: 0, released: 1, live: 0 });
  });

  it("builds each run's agent from the session, its model and yield, and steers and aborts it", async () => {
    const { store, appended } = memoryStore();
    const built: Array<LoopAgentParts<string>> = [];
    let agent!: ScriptedAgent;
    let proceed!: () => void;
    const runner = createLoopRunner(
      { store, systemPrompt: "Be brief." },
      {
        resolve: (named) => `resolved:${named}`,
        failure: (model, message) => `${model}: ${message}`,
        agent: (parts) => {
          built.push(parts);
          agent = new ScriptedAgent(async () => {
            await new Promise<void>((resolve) => {
              proceed = resolve;
            });
            return [answer("done")];
          });
          return agent;
        },
      },
    );
    const { runId } = await runner.start({ sessionKey: "k", message: "hi" });
    expect(built[0]).toMatchObject({
      systemPrompt: "Be brief.",
      model: "resolved:openai/gpt-b",
      sessionId: "s-1",
    });
    expect(await built[0]?.afterToolCall()).toBeUndefined();
    expect(await runner.steer?.(runId, "also this")).toBe(true);
    expect(agent.steered).toEqual(["also this"]);
    await runner.onYield?.("k", "waiting");
    expect(await built[0]?.afterToolCall()).toEqual({ terminate: true });
    proceed();
    expect(await runner.wait(runId, 5_000)).toEqual({ status: "ok", reply: "done", yielded: true });
    // the prompt, written by start, once; then the answer
    expect(appended.map((m) => m.role)).toEqual(["user", "assistant"]);

    const second = await runner.start({ sessionKey: "k", message: "again" });
    const aborting = runner.abort(second.runId);
    expect(agent.aborted).toBe(true);
    proceed();
    await aborting;
    expect(runner.table.size.live).toBe(0);
  });
});
