import { describe, expect, it } from "./vitest-api.js";
import type { ConformanceOptions, Factory, RunRegistryUnderTest } from "./sessions-conformance-types.js";

// The RunRegistry conformance suite (see sessions-conformance.ts for the shapes it is written against).

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
