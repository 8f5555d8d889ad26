import { describe, expect, it } from "./vitest-api.js";
import type {
  ConformanceMessage,
  ConformanceOptions,
  ConformanceRun,
  RunRegistryUnderTest,
  SessionStoreUnderTest,
} from "./sessions-conformance.js";

/*
 * Two-instance steps for the sessions interfaces: two stores (or registries) on ONE backend, as
 * two processes (or machines) have them. A factory returns a fresh pair on a fresh, empty backend
 * each time:
 *
 *   sessionStoreTwoInstanceConformance(async () => { const dir = fresh(); return [new S(dir), new S(dir)]; });
 *
 * Concurrency here is real: both instances write at once, and each step checks that nothing was
 * lost and that each instance reads what the other wrote at once (no stale cache).
 */

type Pair<T> = () => Promise<[T, T]> | [T, T];
const message = (content: string): never => ({ role: "user", content, timestamp: Date.now() }) as never;
const contents = (messages: ConformanceMessage[]) => messages.map((m) => m.content as string);

/** Declares the two-instance SessionStore steps for the pairs `makePair` returns. */
export function sessionStoreTwoInstanceConformance(
  makePair: Pair<SessionStoreUnderTest>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "SessionStore two-instance conformance", () => {
    it("creation is exclusive: both instances creating the same keys at once get one session each", async () => {
      const [a, b] = await makePair();
      const keys = Array.from({ length: 10 }, (_, i) => `agent:main:race${i}`);
      const [fromA, fromB] = await Promise.all([
        Promise.all(keys.map((key) => a.create({ key, agentId: "main", label: `a-${key}` }))),
        Promise.all(keys.map((key) => b.create({ key, agentId: "main", label: `b-${key}` }))),
      ]);
      for (let i = 0; i < keys.length; i++) {
        expect(fromB[i]?.sessionId).toBe(fromA[i]?.sessionId);
        expect(fromB[i]?.label).toBe(fromA[i]?.label);
      }
      expect((await a.list()).map((e) => e.key).sort()).toEqual([...keys].sort());
      expect(new Set((await b.list()).map((e) => e.sessionId)).size).toBe(keys.length);
    });

    it("no lost update: patches of different fields and appends from both at once all stay, in each writer's order", async () => {
      const [a, b] = await makePair();
      await a.create({ key: "agent:main:main", agentId: "main" });
      for (let i = 0; i < 10; i++) await a.create({ key: `agent:main:s${i}`, agentId: "main" });
      const writer = async (store: SessionStoreUnderTest, who: string, patch: (i: number) => object) => {
        for (let i = 0; i < 10; i++) {
          await store.patch(`agent:main:s${i}`, patch(i) as never);
          await store.append("agent:main:main", [message(`${who}${i}`)]);
        }
      };
      await Promise.all([
        writer(a, "a", (i) => ({ model: `openai/m${i}` })),
        writer(b, "b", (i) => ({ label: `l${i}` })),
      ]);
      for (let i = 0; i < 10; i++)
        for (const store of [a, b])
          expect(await store.get(`agent:main:s${i}`)).toMatchObject({
            model: `openai/m${i}`,
            label: `l${i}`,
          });
      const history = contents(await b.history("agent:main:main"));
      expect(history).toHaveLength(20);
      for (const who of ["a", "b"])
        expect(history.filter((c) => c.startsWith(who))).toEqual(
          Array.from({ length: 10 }, (_, i) => `${who}${i}`),
        );
    });

    it("an idempotent append retried through the other instance lands once", async () => {
      const [a, b] = await makePair();
      await a.create({ key: "agent:main:main", agentId: "main" });
      const both = await Promise.all([
        a.append("agent:main:main", [message("once")], { idempotencyKey: "announce:x" }),
        b.append("agent:main:main", [message("once")], { idempotencyKey: "announce:x" }),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect(await a.append("agent:main:main", [message("once")], { idempotencyKey: "announce:x" })).toBe(
        false,
      );
      expect(contents(await b.history("agent:main:main"))).toEqual(["once"]);
    });

    it("each instance reads what the other just wrote: a patch, an append, a delete", async () => {
      const [a, b] = await makePair();
      await a.create({ key: "agent:main:x", agentId: "main" });
      expect((await b.get("agent:main:x"))?.key).toBe("agent:main:x");
      await b.patch("agent:main:x", { label: "seen" });
      expect((await a.resolve({ label: "seen", agentId: "main" }))?.key).toBe("agent:main:x");
      await a.append("agent:main:x", [message("hello")]);
      expect(contents(await b.history("agent:main:x"))).toEqual(["hello"]);
      expect(await b.delete("agent:main:x")).toBe(true);
      expect(await a.get("agent:main:x")).toBeUndefined();
      expect(await a.delete("agent:main:x")).toBe(false);
      await expect(a.patch("agent:main:x", { label: "gone" })).rejects.toThrow();
    });
  });
}

const run = (runId: string, createdAt: number): never =>
  ({
    runId,
    childSessionKey: `agent:main:subagent:${runId}`,
    requesterSessionKey: "agent:main:main",
    task: `task ${runId}`,
    cleanup: "keep",
    depth: 1,
    createdAt,
    status: "running",
    announce: { status: "pending", attempts: 0, idempotencyKey: `announce:${runId}` },
  }) as never;

/** Declares the two-instance RunRegistry steps for the pairs `makePair` returns. */
export function runRegistryTwoInstanceConformance(
  makePair: Pair<RunRegistryUnderTest>,
  options: ConformanceOptions = {},
): void {
  describe(options.name ?? "RunRegistry two-instance conformance", () => {
    it("records and updates from both instances at once: none lost", async () => {
      const [a, b] = await makePair();
      const writes = (registry: RunRegistryUnderTest, who: string) =>
        Array.from({ length: 15 }, async (_, i) => {
          await registry.record(run(`${who}${i}`, i));
          await registry.update(`${who}${i}`, { status: "done", endedAt: 100 + i } as never);
        });
      await Promise.all([...writes(a, "a"), ...writes(b, "b")]);
      for (const registry of [a, b]) {
        const all = await registry.listByRequester("agent:main:main");
        expect(all).toHaveLength(30);
        expect(all.every((r) => r.status === "done")).toBe(true);
      }
    });

    it("no lost update: owner's heartbeat, another's announce and a kill request written at once all stay", async () => {
      const [a, b] = await makePair();
      await a.record(run("r1", 1));
      const owner = { pid: 4242, instance: "i-a", host: "host-a" };
      const abortRequest = { at: 7, by: { pid: 4343, instance: "i-b", host: "host-b" } };
      await Promise.all([
        a.update("r1", { owner, heartbeatAt: 10 } as never),
        b.update("r1", {
          announce: { status: "delivered", attempts: 1, idempotencyKey: "announce:r1" },
        } as never),
        b.update("r1", { abortRequest } as never),
      ]);
      for (const registry of [a, b])
        expect(await registry.get("r1")).toMatchObject({
          owner,
          heartbeatAt: 10,
          abortRequest,
          announce: { status: "delivered", attempts: 1 },
          status: "running",
        });
    });

    it("an end written by one instance is what the other reads next", async () => {
      const [a, b] = await makePair();
      await a.record(run("r1", 1));
      expect((await b.get("r1"))?.status).toBe("running");
      await b.update("r1", { status: "lost", endedAt: 12, outcome: { error: "lost: gone" } } as never);
      expect(await a.get("r1")).toMatchObject({
        status: "lost",
        endedAt: 12,
        outcome: { error: "lost: gone" },
      });
      expect((await a.list()).map((r) => r.status)).toEqual(["lost"]);
      await expect(b.update("nope", { status: "done" } as never)).rejects.toThrow();
    });
  });
}

export type { ConformanceRun };
