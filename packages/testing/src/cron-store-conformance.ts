import type { CronJob, CronStore } from "@clawtools/core/contracts";
import { describe, expect, it } from "./vitest-api.js";
import { sampleCronJob } from "./cron-sample-job.js";
import { type CronStoreTwoInstanceOptions, cronStoreTwoInstanceSteps } from "./cron-store-two-instances.js";

/*
 * The behaviour every CronStore must have (the embedded file store, PostgreSQL, Redis): CRUD,
 * ordering, lease-exclusive claiming (two owners never hold the same job), release rules, paging
 * and the run log. Declared as vitest blocks, one `it` per step, given a factory that returns a
 * new, empty store each call:
 *
 *   cronStoreConformance(async () => new MyCronStore(freshDir()), { twoInstances: { makePair } });
 *
 * Each step is also exported (`cronStoreSteps`), so a store's own tests can run one by hand, or
 * show that a step catches a broken store.
 */

export interface CronStoreConformanceOptions {
  /** The describe block's name (default "CronStore conformance"). */
  name?: string;
  /** Adds the steps with two stores (and two leader leases) on one backend. */
  twoInstances?: CronStoreTwoInstanceOptions;
}

export { sampleCronJob } from "./cron-sample-job.js";
export type { CronStoreTwoInstanceOptions } from "./cron-store-two-instances.js";

const ids = (jobs: CronJob[]) => jobs.map((job) => job.id);

/** Each step of the single-store suite, by the name its `it` block has; each throws on a failure. */
export const cronStoreSteps: Record<string, (store: CronStore) => Promise<void>> = {
  "a new store is empty": async (store) => {
    expect(await store.list()).toEqual([]);
    expect(await store.get("nope")).toBeUndefined();
    expect(await store.remove("nope")).toBe(false);
    expect((await store.readRuns("nope")).total).toBe(0);
    expect(await store.nextWakeAtMs(0)).toBeUndefined();
  },

  "upsert, get and remove; list ordered by next run (none last), then id; get returns a copy": async (
    store,
  ) => {
    await store.upsert(sampleCronJob("b", 3_000));
    await store.upsert(sampleCronJob("a", 2_000));
    await store.upsert(sampleCronJob("c", undefined));
    expect(ids(await store.list())).toEqual(["a", "b", "c"]);
    const got = await store.get("a");
    expect(got).toEqual(sampleCronJob("a", 2_000));
    if (got) got.name = "mutated";
    expect((await store.get("a"))?.name).toBe("job a");
    await store.upsert({ ...sampleCronJob("a", 2_000), name: "renamed" });
    expect((await store.get("a"))?.name).toBe("renamed");
    expect(await store.list()).toHaveLength(3);
    expect(await store.remove("a")).toBe(true);
    expect(await store.get("a")).toBeUndefined();
  },

  "claimDue takes due, enabled, unleased jobs in due order, up to max, and marks them running": async (
    store,
  ) => {
    await store.upsert(sampleCronJob("due1", 1_000));
    await store.upsert(sampleCronJob("due2", 2_000));
    await store.upsert(sampleCronJob("later", 9_000));
    await store.upsert(sampleCronJob("off", 1_000, false));
    const first = await store.claimDue(5_000, "A", 60_000, 1);
    expect(ids(first)).toEqual(["due1"]);
    expect(first[0]?.state.runningAtMs).toBe(5_000);
    expect(ids(await store.claimDue(5_000, "B", 60_000, 10))).toEqual(["due2"]);
    expect(await store.claimDue(5_000, "A", 60_000, 10)).toEqual([]);
    expect(await store.claimDue(5_000, "A", 60_000, 0)).toEqual([]);
    expect(await store.nextWakeAtMs(5_000)).toBe(9_000);
    // an expired lease frees its job for the next claimer
    expect(await store.nextWakeAtMs(5_000 + 60_001)).toBe(1_000);
    expect(ids(await store.claimDue(5_000 + 60_001, "C", 60_000, 10))).toContain("due1");
  },

  "two owners claiming at once never get the same job, and get every due job between them": async (store) => {
    for (let i = 0; i < 20; i++)
      await store.upsert(sampleCronJob(`j${String(i).padStart(2, "0")}`, 1_000 + i));
    const [a, b] = await Promise.all([
      store.claimDue(5_000, "A", 60_000, 20),
      store.claimDue(5_000, "B", 60_000, 20),
    ]);
    const all = [...ids(a), ...ids(b)];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(20);
  },

  "release: only the owner, once; merges the next state, clears runningAtMs; disable and remove": async (
    store,
  ) => {
    await store.upsert(sampleCronJob("r", 1_000));
    await store.claimDue(5_000, "A", 60_000, 1);
    expect(await store.release("r", "B", { lastRunStatus: "ok" })).toBe(false);
    expect(await store.release("r", "A", { lastRunStatus: "ok", nextRunAtMs: 65_000 })).toBe(true);
    const job = await store.get("r");
    expect(job?.state.runningAtMs).toBeUndefined();
    expect(job?.state).toMatchObject({ lastRunStatus: "ok", nextRunAtMs: 65_000 });
    expect(await store.release("r", "A", {})).toBe(false);
    expect(await store.claim("r", 6_000, "A", 60_000)).toBeDefined();
    expect(await store.claim("r", 6_000, "B", 60_000)).toBeUndefined();
    await store.release("r", "A", {}, { disable: true });
    expect((await store.get("r"))?.enabled).toBe(false);
    await store.claim("r", 7_000, "A", 60_000);
    await store.release("r", "A", {}, { remove: true });
    expect(await store.get("r")).toBeUndefined();
    expect(await store.claim("gone", 7_000, "A", 60_000)).toBeUndefined();
  },

  "listPage answers the slice of list() (enabled only unless asked), count the number of jobs": async (
    store,
  ) => {
    if (!store.listPage) return;
    for (let i = 0; i < 30; i++)
      await store.upsert(
        sampleCronJob(`p${String(i).padStart(2, "0")}`, i % 7 === 0 ? undefined : 5_000 - i, i % 5 !== 0),
      );
    // a claim and a release move jobs in the order; the pages follow
    await store.claimDue(10_000, "A", 60_000, 2);
    for (const job of (await store.list()).filter((j) => j.state.runningAtMs !== undefined))
      await store.release(job.id, "A", { nextRunAtMs: 1 });
    const all = await store.list();
    const enabled = all.filter((job) => job.enabled);
    for (const [offset, limit] of [
      [0, 10],
      [10, 10],
      [25, 10],
      [40, 5],
    ] as const) {
      const page = await store.listPage({ offset, limit, includeDisabled: true });
      expect({ ids: ids(page.jobs), total: page.total }).toEqual({
        ids: ids(all.slice(offset, offset + limit)),
        total: all.length,
      });
      const onlyEnabled = await store.listPage({ offset, limit });
      expect({ ids: ids(onlyEnabled.jobs), total: onlyEnabled.total }).toEqual({
        ids: ids(enabled.slice(offset, offset + limit)),
        total: enabled.length,
      });
    }
    if (store.count) expect(await store.count()).toBe(30);
  },

  "the run log: newest first, paged, removed with its job": async (store) => {
    await store.upsert(sampleCronJob("x", 1_000));
    for (let i = 0; i < 5; i++)
      await store.appendRun({
        ts: 10 + i,
        jobId: "x",
        action: "finished",
        status: i === 2 ? "error" : "ok",
        runAtMs: i,
      });
    const page = await store.readRuns("x", { offset: 1, limit: 2 });
    expect(page.total).toBe(5);
    expect(page.entries.map((e) => e.ts)).toEqual([13, 12]);
    expect({ hasMore: page.hasMore, nextOffset: page.nextOffset }).toEqual({ hasMore: true, nextOffset: 3 });
    await store.remove("x");
    expect((await store.readRuns("x")).total).toBe(0);
  },
};

/** Declares the CronStore conformance suite (and its two-instance steps when asked) for `makeStore`. */
export function cronStoreConformance(
  makeStore: () => Promise<CronStore> | CronStore,
  options: CronStoreConformanceOptions = {},
): void {
  describe(options.name ?? "CronStore conformance", () => {
    for (const [name, step] of Object.entries(cronStoreSteps)) it(name, async () => step(await makeStore()));
    if (options.twoInstances) cronStoreTwoInstanceSteps(options.twoInstances);
  });
}
