import { delay } from "@clawtools/core";
import { describe, expect, it } from "vitest";

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

type Role = "user" | "assistant" | "toolResult";

export interface ConformanceSession {
  key: string;
  sessionId: string;
  agentId: string;
  createdAt: number;
  updatedAt: number;
  label?: string;
  model?: string;
  spawnedBy?: string;
  depth?: number;
}

export interface ConformanceMessage {
  role: Role;
  content: unknown;
  timestamp: number;
}

/** What `SessionStore` of @clawtools/sessions promises (structurally). */
export interface SessionStoreUnderTest {
  list(filter?: { agentId?: string; updatedSince?: number }): Promise<ConformanceSession[]>;
  get(key: string): Promise<ConformanceSession | undefined>;
  resolve(ref: {
    key?: string;
    sessionId?: string;
    label?: string;
    agentId?: string;
  }): Promise<ConformanceSession | undefined>;
  create(entry: {
    key: string;
    agentId: string;
    label?: string;
    spawnedBy?: string;
    depth?: number;
  }): Promise<ConformanceSession>;
  patch(key: string, patch: { label?: string; model?: string }): Promise<ConformanceSession>;
  delete(key: string): Promise<boolean>;
  append(key: string, messages: never[], options?: { idempotencyKey?: string }): Promise<boolean>;
  history(key: string, options?: { limit?: number; maxBytes?: number }): Promise<ConformanceMessage[]>;
}

export interface ConformanceRun {
  runId: string;
  childSessionKey: string;
  requesterSessionKey: string;
  task: string;
  cleanup: "delete" | "keep";
  depth: number;
  createdAt: number;
  status: "running" | "done" | "failed" | "killed" | "timeout" | "lost";
  label?: string;
  endedAt?: number;
  announce: { status: "pending" | "delivered" | "failed"; attempts: number; idempotencyKey: string };
}

/** What `RunRegistry` of @clawtools/sessions promises (structurally). */
export interface RunRegistryUnderTest {
  record(run: never): Promise<void>;
  update(runId: string, patch: never): Promise<ConformanceRun>;
  get(runId: string): Promise<ConformanceRun | undefined>;
  listByRequester(requesterSessionKey: string): Promise<ConformanceRun[]>;
  list(): Promise<ConformanceRun[]>;
}

export interface ConformanceOptions {
  /** The describe block's name (default: the interface's). */
  name?: string;
}

type Factory<T> = () => T | Promise<T>;
const msg = (content: string, role: Role = "user"): never =>
  ({ role, content, timestamp: Date.now() }) as never;
const contents = (messages: ConformanceMessage[]) => messages.map((m) => m.content);
const tick = () => delay(2);

/** Declares the SessionStore conformance suite for the stores `factory` makes. */
export function sessionStoreConformance(
  factory: Factory<SessionStoreUnderTest>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "SessionStore conformance", () => {
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
      await store.create({ key: "agent:ops:b", agentId: "ops" });
      await tick();
      const c = await store.create({ key: "agent:main:c", agentId: "main" });
      expect((await store.list()).map((e) => e.key)).toEqual(["agent:main:c", "agent:ops:b", "agent:main:a"]);
      expect((await store.list({ agentId: "ops" })).map((e) => e.key)).toEqual(["agent:ops:b"]);
      expect((await store.list({ updatedSince: c.updatedAt })).map((e) => e.key)).toEqual(["agent:main:c"]);
    });

    it("resolves by key, session id and label (a label within its agent)", async () => {
      const store = await factory();
      const a = await store.create({ key: "agent:main:a", agentId: "main", label: "worker" });
      await store.create({ key: "agent:ops:b", agentId: "ops", label: "worker" });
      expect((await store.resolve({ key: "agent:main:a" }))?.key).toBe("agent:main:a");
      expect((await store.resolve({ sessionId: a.sessionId }))?.key).toBe("agent:main:a");
      expect((await store.resolve({ label: "worker", agentId: "ops" }))?.key).toBe("agent:ops:b");
      expect((await store.resolve({ label: "worker", agentId: "main" }))?.key).toBe("agent:main:a");
      expect(await store.resolve({ label: "nobody", agentId: "main" })).toBeUndefined();
      expect(await store.resolve({ sessionId: "no-such-id" })).toBeUndefined();
    });

    it("patch changes fields, keeps the key and id, bumps updatedAt; undefined removes a field", async () => {
      const store = await factory();
      const a = await store.create({ key: "agent:main:a", agentId: "main" });
      await tick();
      const patched = await store.patch("agent:main:a", { model: "openai/x", label: "l" });
      expect(patched).toMatchObject({
        key: "agent:main:a",
        sessionId: a.sessionId,
        model: "openai/x",
        label: "l",
      });
      expect(patched.updatedAt).toBeGreaterThan(a.updatedAt);
      expect((await store.get("agent:main:a"))?.model).toBe("openai/x");
      await store.patch("agent:main:a", { model: undefined });
      expect((await store.get("agent:main:a"))?.model).toBeUndefined();
      await expect(store.patch("agent:main:missing", { label: "x" })).rejects.toThrow();
    });

    it("delete removes the session and its transcript", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      await store.append("agent:main:a", [msg("hello")]);
      expect(await store.delete("agent:main:a")).toBe(true);
      expect(await store.get("agent:main:a")).toBeUndefined();
      expect(await store.history("agent:main:a")).toEqual([]);
      expect(await store.delete("agent:main:a")).toBe(false);
    });

    it("append keeps order; history gives the newest `limit`, oldest first", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      expect(await store.append("agent:main:a", [msg("one"), msg("two", "assistant")])).toBe(true);
      await store.append("agent:main:a", [msg("three")]);
      expect(contents(await store.history("agent:main:a"))).toEqual(["one", "two", "three"]);
      expect(contents(await store.history("agent:main:a", { limit: 2 }))).toEqual(["two", "three"]);
      expect((await store.history("agent:main:a")).map((m) => m.role)).toEqual(["user", "assistant", "user"]);
      await expect(store.append("agent:main:missing", [msg("x")])).rejects.toThrow();
    });

    it("an append under an idempotency key happens once", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:a", agentId: "main" });
      expect(await store.append("agent:main:a", [msg("event")], { idempotencyKey: "k" })).toBe(true);
      expect(await store.append("agent:main:a", [msg("event")], { idempotencyKey: "k" })).toBe(false);
      const both = await Promise.all([
        store.append("agent:main:a", [msg("other")], { idempotencyKey: "k2" }),
        store.append("agent:main:a", [msg("other")], { idempotencyKey: "k2" }),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect(contents(await store.history("agent:main:a"))).toEqual(["event", "other"]);
    });

    it("20 concurrent creates, patches and appends lose nothing", async () => {
      const store = await factory();
      await store.create({ key: "agent:main:main", agentId: "main" });
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          await store.create({
            key: `agent:main:s${i}`,
            agentId: "main",
            spawnedBy: "agent:main:main",
            depth: 1,
          });
          await store.patch(`agent:main:s${i}`, { label: `s${i}` });
          await store.append("agent:main:main", [msg(`m${i}`)]);
        }),
      );
      const all = await store.list({ agentId: "main" });
      expect(all).toHaveLength(21);
      expect(all.filter((e) => e.label?.startsWith("s"))).toHaveLength(20);
      expect(new Set(contents(await store.history("agent:main:main")))).toEqual(
        new Set(Array.from({ length: 20 }, (_, i) => `m${i}`)),
      );
    });
  });
}

const run = (runId: string, requester: string, createdAt: number): never =>
  ({
    runId,
    childSessionKey: `agent:main:subagent:${runId}`,
    requesterSessionKey: requester,
    task: `task ${runId}`,
    cleanup: "keep",
    depth: 1,
    createdAt,
    status: "running",
    announce: { status: "pending", attempts: 0, idempotencyKey: `announce:${runId}` },
  }) as never;

/** Declares the RunRegistry conformance suite for the registries `factory` makes. */
export function runRegistryConformance(
  factory: Factory<RunRegistryUnderTest>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "RunRegistry conformance", () => {
    it("records and gets a run as recorded", async () => {
      const runs = await factory();
      await runs.record(run("r1", "agent:main:main", 1));
      expect(await runs.get("r1")).toMatchObject({
        runId: "r1",
        childSessionKey: "agent:main:subagent:r1",
        status: "running",
        announce: { status: "pending", attempts: 0, idempotencyKey: "announce:r1" },
      });
      expect(await runs.get("nope")).toBeUndefined();
    });

    it("update merges, returns the run, and refuses an unknown run", async () => {
      const runs = await factory();
      await runs.record(run("r1", "agent:main:main", 1));
      const updated = await runs.update("r1", { status: "done", endedAt: 5 } as never);
      expect(updated).toMatchObject({ runId: "r1", status: "done", endedAt: 5, task: "task r1" });
      expect(await runs.get("r1")).toMatchObject({ status: "done", endedAt: 5 });
      await expect(runs.update("nope", { status: "done" } as never)).rejects.toThrow();
    });

    it("lists by requester and in all, oldest first", async () => {
      const runs = await factory();
      await runs.record(run("b", "agent:main:main", 2));
      await runs.record(run("a", "agent:main:main", 1));
      await runs.record(run("c", "agent:main:other", 3));
      expect((await runs.listByRequester("agent:main:main")).map((r) => r.runId)).toEqual(["a", "b"]);
      expect((await runs.listByRequester("agent:main:nobody")).map((r) => r.runId)).toEqual([]);
      expect((await runs.list()).map((r) => r.runId)).toEqual(["a", "b", "c"]);
    });

    it("20 concurrent records and updates lose nothing", async () => {
      const runs = await factory();
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          await runs.record(run(`r${i}`, "agent:main:main", i));
          await runs.update(`r${i}`, { status: "done" } as never);
        }),
      );
      const all = await runs.listByRequester("agent:main:main");
      expect(all).toHaveLength(20);
      expect(all.every((r) => r.status === "done")).toBe(true);
    });
  });
}
