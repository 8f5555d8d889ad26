import { delay } from "@clawtools/core/time";
import { itLacks, type StepRun } from "./lacked-step.js";
import { describe, expect, it as vitestIt } from "./vitest-api.js";
import type {
  ConformanceMessage,
  Factory,
  Role,
  SessionStoreConformanceOptions,
  SessionStoreStep,
  SessionStoreUnderTest,
} from "./sessions-conformance-types.js";

/*
 * Conformance suites for the interfaces of @clawtools/sessions. They are written against the
 * shapes, not the package (which depends on this kit for its own tests), so any implementation
 * (the embedded files, PostgreSQL, Redis, an OpenClaw Gateway) runs them:
 *
 *   sessionStoreConformance(() => new MyStore(freshDatabase()));
 *   runRegistryConformance(() => new MyRuns(freshDatabase()));
 *
 * Each call declares a vitest `describe` block; the factory is called once per test and must
 * return an empty store.
 */

export type {
  ConformanceMessage,
  ConformanceOptions,
  ConformanceRun,
  ConformanceSession,
  RunRegistryUnderTest,
  SessionStoreConformanceOptions,
  SessionStoreStep,
  SessionStoreUnderTest,
} from "./sessions-conformance-types.js";

const msg = (content: string, role: Role): never => ({ role, content, timestamp: Date.now() }) as never;
const contents = (messages: ConformanceMessage[]) => messages.map((m) => m.content);
/** A message's text, whether its content is a string or text parts. */
const textOf = (content: unknown): unknown =>
  Array.isArray(content) ? content.map((part) => (part as { text?: unknown })?.text ?? "").join("") : content;
const tick = () => delay(2);

/** Declares the SessionStore conformance suite for the stores `factory` makes. */
export function sessionStoreConformance(
  factory: Factory<SessionStoreUnderTest>,
  options: SessionStoreConformanceOptions = {},
): void {
  const name = options.name ?? "SessionStore conformance";
  const lacks = (step: SessionStoreStep) => options.lacks?.[step];
  // a store that writes assistant text only gets assistant messages where the user's would go
  const user: Role = lacks("userMessages") ? "assistant" : "user";
  // the session of a second agent, or (for a store of one agent) a second session of main
  const second = lacks("otherAgents")
    ? { key: "agent:main:b", agentId: "main" }
    : { key: "agent:ops:b", agentId: "ops" };
  // a store that gives content back as text parts is compared by its text
  const read = lacks("verbatimContent")
    ? (messages: ConformanceMessage[]) => messages.map((m) => textOf(m.content))
    : contents;
  const model = options.patchModel ?? "openai/x";
  if (lacks("otherAgents"))
    console.info(`[${name}] a second agent's sessions are not made: ${lacks("otherAgents")}`);
  const lacked: Array<() => void> = [];
  /**
   * A step, or (when it needs what the store lacks) the step as an expected failure, declared
   * after the others: one cut short by its time cannot write into a step the store can do.
   */
  const it = (title: string, fn: (run: StepRun) => Promise<void>, needs: SessionStoreStep[] = []) => {
    const step = needs.find(lacks);
    if (!step)
      return vitestIt(
        title,
        (ctx) => fn({ signal: ctx.signal, waitMs: Infinity, ctx }),
        options.stepTimeoutMs,
      );
    const reason = lacks(step) as string;
    lacked.push(() => itLacks({ suite: name, step, reason, title, ms: options.lackedStepMs }, fn));
  };
  describe(name, () => {
    it("create gives a session id and times, and is idempotent per key", async () => {
      const store = await factory();
      const a = await store.create({ key: "agent:main:a", agentId: "main", label: "first" });
      expect(a).toMatchObject({ key: "agent:main:a", agentId: "main", label: "first" });
      expect(typeof a.sessionId).toBe("string");
      expect(a.sessionId.length).toBeGreaterThan(0);
      expect(a.updatedAt).toBeGreaterThanOrEqual(a.createdAt);
      const again = await store.create({ key: "agent:main:a", agentId: "main", label: "second" });
      expect(again.sessionId).toBe(a.sessionId);
      expect(again.label).toBe("first");
      expect(await store.get("agent:main:missing")).toBeUndefined();
    });

    it("list is newest first and filters by agent and by update time", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      await tick();
      await store.create(second);
      await tick();
      const c = await store.create({ key: "agent:main:c", agentId: "main" });
      expect((await store.list()).map((e) => e.key)).toEqual(["agent:main:c", second.key, "agent:main:a"]);
      expect((await store.list({ agentId: "ops" })).map((e) => e.key)).toEqual(
        second.agentId === "ops" ? [second.key] : [],
      );
      expect((await store.list({ updatedSince: c.updatedAt })).map((e) => e.key)).toEqual(["agent:main:c"]);
    });

    it("resolves by key, session id and label (a label within its agent)", async () => {
      const store = await factory();
      const a = await store.create({ key: "agent:main:a", agentId: "main", label: "worker" });
      // the same label in another agent (a store of one agent: a label in no other session)
      await store.create({ ...second, label: second.agentId === "ops" ? "worker" : "helper" });
      expect((await store.resolve({ key: "agent:main:a" }))?.key).toBe("agent:main:a");
      expect((await store.resolve({ sessionId: a.sessionId }))?.key).toBe("agent:main:a");
      expect(
        (
          await store.resolve({
            label: second.agentId === "ops" ? "worker" : "helper",
            agentId: second.agentId,
          })
        )?.key,
      ).toBe(second.key);
      expect((await store.resolve({ label: "worker", agentId: "main" }))?.key).toBe("agent:main:a");
      expect(await store.resolve({ label: "nobody", agentId: "main" })).toBeUndefined();
      expect(await store.resolve({ sessionId: "no-such-id" })).toBeUndefined();
    });

    it("patch changes fields, keeps the key and id, bumps updatedAt; undefined removes a field", async () => {
      const store = await factory();
      const a = await store.create({ key: "agent:main:a", agentId: "main" });
      await tick();
      const patched = await store.patch("agent:main:a", { model, label: "l" });
      expect(patched).toMatchObject({
        key: "agent:main:a",
        sessionId: a.sessionId,
        model,
        label: "l",
      });
      expect(patched.updatedAt).toBeGreaterThan(a.updatedAt);
      expect((await store.get("agent:main:a"))?.model).toBe(model);
      await store.patch("agent:main:a", { model: undefined });
      expect((await store.get("agent:main:a"))?.model).toBeUndefined();
      await expect(store.patch("agent:main:missing", { label: "x" })).rejects.toThrow();
    });

    it("delete removes the session and its transcript", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      await store.append("agent:main:a", [msg("hello", user)]);
      expect(await store.delete("agent:main:a")).toBe(true);
      expect(await store.get("agent:main:a")).toBeUndefined();
      expect(await store.history("agent:main:a")).toEqual([]);
      expect(await store.delete("agent:main:a")).toBe(false);
    });

    it("append keeps order; history gives the newest `limit`, oldest first", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      expect(await store.append("agent:main:a", [msg("one", user), msg("two", "assistant")])).toBe(true);
      await store.append("agent:main:a", [msg("three", user)]);
      expect(read(await store.history("agent:main:a"))).toEqual(["one", "two", "three"]);
      expect(read(await store.history("agent:main:a", { limit: 2 }))).toEqual(["two", "three"]);
      expect((await store.history("agent:main:a")).map((m) => m.role)).toEqual([user, "assistant", user]);
      await expect(store.append("agent:main:missing", [msg("x", user)])).rejects.toThrow();
    });

    it("an append under an idempotency key happens once", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      expect(await store.append("agent:main:a", [msg("event", user)], { idempotencyKey: "k" })).toBe(true);
      expect(await store.append("agent:main:a", [msg("event", user)], { idempotencyKey: "k" })).toBe(false);
      const both = await Promise.all([
        store.append("agent:main:a", [msg("other", user)], { idempotencyKey: "k2" }),
        store.append("agent:main:a", [msg("other", user)], { idempotencyKey: "k2" }),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect(read(await store.history("agent:main:a"))).toEqual(["event", "other"]);
    }, ["idempotentAppend"]);

    // what the suite works around when a store lacks it, checked on its own
    it("a user message appended comes back as the user's", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      await store.append("agent:main:a", [msg("from the user", "user")]);
      const history = await store.history("agent:main:a");
      expect(history.map((m) => [m.role, textOf(m.content)])).toEqual([["user", "from the user"]]);
    }, ["userMessages"]);

    it("history gives a message's content back as it was appended", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      await store.append("agent:main:a", [msg("verbatim", "assistant")]);
      expect(contents(await store.history("agent:main:a"))).toEqual(["verbatim"]);
    }, ["verbatimContent"]);

    it("sessions of an agent besides main are its own", async () => {
      const store = await factory();
      await store.create({ key: "agent:ops:b", agentId: "ops" });
      await store.create({ key: "agent:main:a", agentId: "main" });
      expect(await store.get("agent:ops:b")).toMatchObject({ key: "agent:ops:b", agentId: "ops" });
      expect((await store.list({ agentId: "ops" })).map((e) => e.key)).toEqual(["agent:ops:b"]);
      expect((await store.list({ agentId: "main" })).map((e) => e.key)).toEqual(["agent:main:a"]);
    }, ["otherAgents"]);

    it(
      "20 concurrent creates, patches and appends lose nothing",
      async ({ signal }) => {
        const store = await factory();
        // the parent is not `agent:main:main`: a Gateway keeps its main session (it cannot be deleted)
        await store.create({ key: "agent:main:parent", agentId: "main" });
        await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            await store.create({
              key: `agent:main:s${i}`,
              agentId: "main",
              spawnedBy: "agent:main:parent",
              depth: 1,
            });
            signal.throwIfAborted();
            await store.patch(`agent:main:s${i}`, { label: `s${i}` });
            signal.throwIfAborted();
            await store.append("agent:main:parent", [msg(`m${i}`, user)]);
          }),
        );
        const all = await store.list({ agentId: "main" });
        expect(all).toHaveLength(21);
        expect(all.filter((e) => e.label?.startsWith("s"))).toHaveLength(20);
        expect(new Set(read(await store.history("agent:main:parent")))).toEqual(
          new Set(Array.from({ length: 20 }, (_, i) => `m${i}`)),
        );
      },
      ["spawnedBy"],
    );

    for (const declare of lacked) declare();
  });
}

export { runRegistryConformance } from "./run-registry-conformance.js";
