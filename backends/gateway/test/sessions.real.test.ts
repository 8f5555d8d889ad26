import { once } from "node:events";
import { agentRunnerConformance, type ConformanceModel, sessionStoreConformance } from "@clawtools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayClient } from "../src/client.js";
import { GatewayAgentRunner } from "../src/agent-runner.js";
import { GatewaySessionStore } from "../src/session-store.js";
import { type FakeOpenAiModel, type SharedGateway, startFakeOpenAiModel } from "../src/testing/index.js";
import { conformanceResponder } from "./conformance-model.js";
import { BOOT_TIMEOUT_MS, bootGateway, operator, skipReason } from "./real.js";

const RUN_MS = 240_000; // a turn on a loaded machine takes 20-60 s before the model is asked

// the run's shared Gateway, its default model (provider `fake`) this file's loopback
// OpenAI-compatible server while the file holds it; a second one (provider `scripted`) answers
// the AgentRunner conformance suite's sessions with the suite's model
describe.skipIf(skipReason !== undefined)("sessions and agent runs through a real OpenClaw Gateway", () => {
  let model: FakeOpenAiModel;
  let scripted: FakeOpenAiModel;
  let conformance: ConformanceModel | undefined;
  let gateway: SharedGateway;
  let client: GatewayClient;
  let store: GatewaySessionStore;

  beforeAll(async () => {
    model = await startFakeOpenAiModel();
    scripted = await startFakeOpenAiModel({ respond: conformanceResponder(() => conformance) });
    // its SessionStore conformance lists every session: a Gateway with none (no main one either)
    gateway = await bootGateway({ models: { fake: model, scripted }, noSessions: true });
    client = operator(gateway);
    await client.connect();
    store = new GatewaySessionStore({ client });
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await model?.close();
    await scripted?.close();
  }, 60_000);

  // first in the file: each step starts from an empty store (the Gateway's sessions deleted)
  sessionStoreConformance(
    async () => {
      await Promise.all((await store.list()).map((entry) => store.delete(entry.key)));
      return store;
    },
    {
      name: "GatewaySessionStore: SessionStore conformance",
      stepTimeoutMs: 120_000,
      // a step here takes 2-18 s on a loaded machine: long enough for a lacked step to reach its
      // check (and fail once the Gateway can do it), far short of the 120 s a step may take
      lackedStepMs: 15_000,
      patchModel: "fake/echo-1", // 9.6 refuses a model it does not know
      lacks: {
        verbatimContent: "the Gateway's chat.history gives content back as text parts",
        userMessages: "the Gateway's chat.inject writes assistant messages only",
        idempotentAppend: "the Gateway's chat.inject takes no idempotency key",
        // with agents.entries {main, ops} in its config, 2026.9.6 did not start here twice ("state
        // lease heartbeat did not become ready"); not looked into further
        otherAgents: "this test's Gateway has the one agent, main",
      },
    },
  );

  describe("GatewaySessionStore", () => {
    const key = "agent:main:clawtools-store";

    it("creates a session, lists and gets it, injects a message and reads it back, patches its label, deletes it", async () => {
      const created = await store.create({ key, agentId: "main", label: "store test" });
      expect(created).toMatchObject({
        key,
        agentId: "main",
        label: "store test",
        depth: 0,
        sessionId: expect.any(String),
      });
      expect(created.parentSessionKey).toBeUndefined();
      // a second create answers the same session
      expect((await store.create({ key, agentId: "main" })).sessionId).toBe(created.sessionId);
      expect((await store.list()).map((e) => e.key)).toContain(key);
      expect((await store.list({ agentId: "other" })).map((e) => e.key)).not.toContain(key);
      expect(await store.get(key)).toMatchObject({ key, sessionId: created.sessionId });
      expect(await store.get("agent:main:no-such-session")).toBeUndefined();
      expect(await store.resolve({ label: "store test", agentId: "main" })).toMatchObject({ key });
      expect(await store.resolve({ sessionId: created.sessionId })).toMatchObject({ key });
      expect(await store.resolve({ label: "no such label" })).toBeUndefined();

      const message = {
        role: "assistant" as const,
        content: [{ type: "text" as const, text: "injected by clawtools" }],
        timestamp: Date.now(),
      };
      expect(await store.append(key, [message])).toBe(true);
      const history = await store.history(key);
      expect(history.at(-1)).toMatchObject({
        role: "assistant",
        content: [{ type: "text", text: "injected by clawtools" }],
      });
      expect(history.at(-1)).not.toHaveProperty("__openclaw");
      expect(await store.history(key, { limit: 1 })).toHaveLength(1);

      expect(await store.patch(key, { label: "renamed" })).toMatchObject({ key, label: "renamed" });
      expect(await store.resolve({ label: "renamed" })).toMatchObject({ key });

      expect(await store.delete(key)).toBe(true);
      expect(await store.get(key)).toBeUndefined();
      expect(await store.delete(key)).toBe(false);
    }, 180_000);

    it("refuses what the Gateway cannot do, naming the method, and writes nothing", async () => {
      const k = "agent:main:clawtools-refusals";
      await store.create({ key: k, agentId: "main" });
      const text = (t: string) => ({ role: "assistant" as const, content: t, timestamp: Date.now() });
      await expect(store.append(k, [text("once")], { idempotencyKey: "d-1" })).rejects.toThrow(
        /^gateway chat\.inject takes no idempotency key/,
      );
      // the first message is fine, the second is not: neither is written
      await expect(
        store.append(k, [text("first"), { role: "user", content: "from the user", timestamp: Date.now() }]),
      ).rejects.toThrow(/^gateway chat\.inject cannot append message 1: it writes assistant messages only/);
      await expect(
        store.append(k, [{ role: "assistant", content: [{ type: "image", data: "AAAA" }], timestamp: 1 }]),
      ).rejects.toThrow(/not a image block/);
      expect(await store.history(k)).toEqual([]);
      await expect(store.patch(k, { status: "done", endedAt: 1 })).rejects.toThrow(
        /^gateway sessions\.patch cannot set status, endedAt/,
      );
      await expect(
        store.create({ key: "agent:main:x2", agentId: "main", sessionId: "mine" }),
      ).rejects.toThrow(/^gateway sessions\.create cannot set sessionId/);
      await expect(store.append("agent:main:never-created", [text("x")])).rejects.toThrow(/Unknown session/);
      expect(await store.delete(k)).toBe(true);
    }, 180_000);
  });

  describe("GatewayAgentRunner", () => {
    it(
      "runs a turn on the Gateway's agent loop; wait gives the model's final text",
      async () => {
        const runner = new GatewayAgentRunner({ client });
        const key = "agent:main:clawtools-run";
        await store.create({ key, agentId: "main" });
        const { runId } = await runner.start({ sessionKey: key, message: "say hello" });
        expect(await runner.wait(runId, RUN_MS)).toEqual({
          status: "ok",
          reply: "pong from the loopback model",
        });
        // the Gateway spoke OpenAI's chat-completions wire format to the loopback model
        expect(model.problems).toEqual([]);
        expect(model.requests.length).toBeGreaterThan(0);
        expect(model.requests[0]).toMatchObject({
          path: "/v1/chat/completions",
          body: { model: "echo-1", stream: true },
        });
        const history = await store.history(key);
        expect(history.at(-1)).toMatchObject({ role: "assistant" });
        expect(JSON.stringify(history.at(-1)?.content)).toContain("pong from the loopback model");
        // a finished run cannot be steered; an unknown one is an error outcome
        expect(await runner.steer(runId, "more")).toBe(false);
        expect(await runner.wait("no-such-run", 0)).toEqual({
          status: "error",
          error: "Unknown run: no-such-run",
        });
      },
      RUN_MS + 30_000,
    );

    it(
      "abort of a long streaming answer ends the run as aborted and hangs up on the model",
      async () => {
        const runner = new GatewayAgentRunner({ client });
        const key = "agent:main:clawtools-abort";
        await store.create({ key, agentId: "main" });
        const streaming = once(model.events, "slow");
        const closed = once(model.events, "slow-closed");
        const { runId } = await runner.start({ sessionKey: key, message: "answer SLOW please" });
        await streaming;
        expect(await runner.wait(runId, 0)).toEqual({ status: "running" });
        await runner.abort(runId);
        expect(await runner.wait(runId, RUN_MS)).toMatchObject({ status: "aborted" });
        await closed;
        expect(await runner.steer(runId, "too late")).toBe(false);
        expect(model.problems).toEqual([]);
      },
      RUN_MS + 30_000,
    );
  });

  agentRunnerConformance({
    name: "GatewayAgentRunner: AgentRunner conformance",
    waitMs: RUN_MS,
    stepTimeoutMs: 2 * RUN_MS + 30_000,
    lacks: {
      // seen on 9.6: chat.send (queueMode steer) into a run whose model is answering is accepted,
      // yet the model gets the message in a new turn after the run has ended, not in the run
      steer:
        "the Gateway runs a message steered into a run whose model is answering as a follow-up turn after the run",
      tools:
        "the Gateway's agent loop runs the Gateway's own tools (exec, read, …), not tools handed to the runner",
    },
    setup: async ({ model: suiteModel }) => {
      conformance = suiteModel;
      return {
        runner: new GatewayAgentRunner({ client }),
        // the session's model override sends its turns to the scripted fake
        createSession: async (key) =>
          void (await store.create({ key, agentId: "main", model: "scripted/echo-1" })),
      };
    },
  });

  it("the scripted model was sent only well-formed chat-completions requests", () => {
    expect(scripted.requests.length).toBeGreaterThan(0);
    expect(scripted.problems).toEqual([]);
  });
});
