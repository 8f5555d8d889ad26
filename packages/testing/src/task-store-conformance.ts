import type { TaskRecord, TaskStore } from "@clawtools/core/contracts";
import { describe, expect, it } from "./vitest-api.js";

/*
 * The behaviour every TaskStore must have (the embedded files under the state dir, PostgreSQL):
 * a created task is read back whole, by any instance on the same backend; updates are
 * read-modify-write, exclusive across instances (concurrent changes lose nothing); list and delete.
 *
 *   taskStoreConformance({ makePair: async () => [storeA, storeB] });
 */

export interface TaskStoreConformanceOptions {
  name?: string;
  /** Two stores on one new, empty backend (two processes opening the same directory or database). */
  makePair: () => Promise<[TaskStore, TaskStore]> | [TaskStore, TaskStore];
}

/** A working task as a task host creates it. */
export function sampleTask(taskId: string, extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    status: "working",
    createdAt: 1_000,
    lastUpdatedAt: 1_000,
    ttlMs: 60_000,
    pollIntervalMs: 500,
    scope: "client-a",
    tool: "exec",
    owner: { pid: 4242, instance: "owner-1", host: "host-1" },
    heartbeatAt: 1_000,
    ...extra,
  };
}

/** Each step by the name of its `it` block; each throws on a failure. */
export const taskStoreSteps: Record<string, (a: TaskStore, b: TaskStore) => Promise<void>> = {
  "a created task is read back whole by the other instance; unknown ids read as undefined": async (a, b) => {
    const task = sampleTask("t-read", {
      inputRequests: { k: { method: "elicitation/create", params: { message: "ok?" } } },
    });
    await a.create(task);
    expect(await b.get("t-read")).toEqual(task);
    expect(await b.get("t-unknown")).toBeUndefined();
    expect(await b.get("../../etc/passwd")).toBeUndefined();
  },

  "update is read-modify-write: undefined leaves the task, a record replaces it, unknown ids give undefined":
    async (a, b) => {
      await a.create(sampleTask("t-update"));
      expect(await b.update("t-update", () => undefined)).toMatchObject({ status: "working" });
      const done = await b.update("t-update", (t) => ({
        ...t,
        status: "completed",
        result: { content: [{ type: "text", text: "done" }] },
        lastUpdatedAt: 2_000,
      }));
      expect(done).toMatchObject({ status: "completed", lastUpdatedAt: 2_000 });
      expect(await a.get("t-update")).toEqual(done);
      expect(await a.update("t-nope", (t) => t)).toBeUndefined();
    },

  "concurrent updates from both instances lose nothing": async (a, b) => {
    await a.create(sampleTask("t-race", { inputResponses: {} }));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        a.update("t-race", (t) => ({ ...t, inputResponses: { ...t.inputResponses, [`a${i}`]: i } })),
        b.update("t-race", (t) => ({ ...t, inputResponses: { ...t.inputResponses, [`b${i}`]: i } })),
      ]).flat(),
    );
    expect(Object.keys((await a.get("t-race"))?.inputResponses ?? {})).toHaveLength(20);
  },

  "list shows every task; delete drops one for both instances": async (a, b) => {
    await a.create(sampleTask("t-1"));
    await b.create(sampleTask("t-2", { scope: "client-b" }));
    expect((await a.list()).map((t) => t.taskId).sort()).toEqual(["t-1", "t-2"]);
    await b.delete("t-1");
    expect(await a.get("t-1")).toBeUndefined();
    expect((await a.list()).map((t) => t.taskId)).toEqual(["t-2"]);
    await a.delete("t-never");
  },
};

/** Declares the steps as vitest blocks, each on a new pair of stores. */
export function taskStoreConformance(options: TaskStoreConformanceOptions): void {
  describe(options.name ?? "TaskStore conformance", () => {
    for (const [name, step] of Object.entries(taskStoreSteps))
      it(name, async () => {
        const [a, b] = await options.makePair();
        try {
          await step(a, b);
        } finally {
          await a.close?.();
          await b.close?.();
        }
      });
  });
}
