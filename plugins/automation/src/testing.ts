import type { Clock, CronStore } from "./cron/interfaces.js";
import type { CronJob } from "./cron/types.js";
import { type TwoInstanceOptions, twoInstanceSteps } from "./two-instances.js";

export type { TwoInstanceOptions } from "./two-instances.js";

/**
 * A clock whose time moves only when told. `advance` fires due timers in time order, setting
 * `now` to each one's time, and awaits `settle` (the scheduler's `idle()`) after each.
 */
export class FakeClock implements Clock {
  private timers: Array<{ id: number; at: number; fn: () => void }> = [];
  private nextId = 1;
  constructor(public nowMs: number) {}

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ id, at: this.nowMs + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  /** When the armed timers fire, earliest first. */
  pending(): number[] {
    return this.timers.map((timer) => timer.at).sort((a, b) => a - b);
  }

  async advance(ms: number, settle?: () => Promise<void>): Promise<void> {
    await this.advanceTo(this.nowMs + ms, settle);
  }

  async advanceTo(targetMs: number, settle?: () => Promise<void>): Promise<void> {
    for (;;) {
      if (settle) await settle();
      const due = this.timers
        .filter((timer) => timer.at <= targetMs)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.nowMs = Math.max(this.nowMs, due.at);
      due.fn();
    }
    this.nowMs = Math.max(this.nowMs, targetMs);
    if (settle) await settle();
  }
}

export interface ConformanceReport {
  ok: boolean;
  problems: string[];
}

function sampleJob(id: string, nextRunAtMs: number | undefined, enabled = true): CronJob {
  return {
    id,
    name: `job ${id}`,
    enabled,
    createdAtMs: 1_000,
    updatedAtMs: 1_000,
    schedule: { kind: "every", everyMs: 60_000, anchorMs: 0 },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: `hello ${id}` },
    state: nextRunAtMs === undefined ? {} : { nextRunAtMs },
  };
}

/**
 * The behaviour every `CronStore` must have (the embedded file store, PostgreSQL, Redis): CRUD,
 * ordering, lease-exclusive claiming (two owners never hold the same job), release rules and the
 * run log. `makeStore` returns a new, empty store each time it is called. With `twoInstances`,
 * also the steps with two stores on one backend (no lost update, exclusive claims, claim and
 * leader-lease expiry and takeover), as two processes sharing it would see them.
 */
export async function runCronStoreConformance(
  makeStore: () => Promise<CronStore>,
  options: { twoInstances?: TwoInstanceOptions } = {},
): Promise<ConformanceReport> {
  const problems: string[] = [];
  const check = (condition: boolean, what: string) => {
    if (!condition) problems.push(what);
  };
  const step = async (name: string, fn: (store: CronStore) => Promise<void>) => {
    try {
      await fn(await makeStore());
    } catch (error) {
      problems.push(`${name}: threw ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  await step("empty", async (store) => {
    check((await store.list()).length === 0, "empty: list() of a new store is not empty");
    check((await store.get("nope")) === undefined, "empty: get() of an unknown id is not undefined");
    check((await store.remove("nope")) === false, "empty: remove() of an unknown id is not false");
    check((await store.readRuns("nope")).total === 0, "empty: readRuns() of an unknown id is not empty");
    check(
      (await store.nextWakeAtMs(0)) === undefined,
      "empty: nextWakeAtMs() of a new store is not undefined",
    );
  });

  await step("crud", async (store) => {
    await store.upsert(sampleJob("b", 3_000));
    await store.upsert(sampleJob("a", 2_000));
    await store.upsert(sampleJob("c", undefined));
    const ids = (await store.list()).map((job) => job.id).join(",");
    check(ids === "a,b,c", `crud: list() is not ordered by next run, then id (got ${ids})`);
    const got = await store.get("a");
    check(
      JSON.stringify(got) === JSON.stringify(sampleJob("a", 2_000)),
      "crud: get() does not return what upsert() stored",
    );
    if (got) got.name = "mutated";
    check((await store.get("a"))?.name === "job a", "crud: get() returns a live object, not a copy");
    await store.upsert({ ...sampleJob("a", 2_000), name: "renamed" });
    check((await store.get("a"))?.name === "renamed", "crud: upsert() does not replace an existing job");
    check((await store.list()).length === 3, "crud: upsert() of an existing id added a job");
    check((await store.remove("a")) === true, "crud: remove() of an existing job is not true");
    check((await store.get("a")) === undefined, "crud: a removed job is still there");
  });

  await step("claimDue", async (store) => {
    await store.upsert(sampleJob("due1", 1_000));
    await store.upsert(sampleJob("due2", 2_000));
    await store.upsert(sampleJob("later", 9_000));
    await store.upsert(sampleJob("off", 1_000, false));
    const first = await store.claimDue(5_000, "A", 60_000, 1);
    check(first.map((j) => j.id).join(",") === "due1", "claimDue: max or due order not respected");
    check(
      first[0]?.state.runningAtMs === 5_000,
      "claimDue: a claimed job is not marked running (runningAtMs)",
    );
    const second = await store.claimDue(5_000, "B", 60_000, 10);
    check(second.map((j) => j.id).join(",") === "due2", "claimDue: claimed a leased, disabled or future job");
    check(
      (await store.claimDue(5_000, "A", 60_000, 10)).length === 0,
      "claimDue: a leased job was claimed twice",
    );
    check((await store.nextWakeAtMs(5_000)) === 9_000, "nextWakeAtMs: not the earliest unleased enabled job");
    check(
      (await store.nextWakeAtMs(5_000 + 60_001)) === 1_000,
      "nextWakeAtMs: an expired lease still hides its job",
    );
    const afterExpiry = await store.claimDue(5_000 + 60_001, "C", 60_000, 10);
    check(
      afterExpiry.some((j) => j.id === "due1"),
      "claimDue: an expired lease does not free the job",
    );
  });

  await step("concurrent claims", async (store) => {
    for (let i = 0; i < 20; i++) await store.upsert(sampleJob(`j${String(i).padStart(2, "0")}`, 1_000 + i));
    const [a, b] = await Promise.all([
      store.claimDue(5_000, "A", 60_000, 20),
      store.claimDue(5_000, "B", 60_000, 20),
    ]);
    const ids = [...a, ...b].map((j) => j.id);
    check(new Set(ids).size === ids.length, "concurrent claims: two owners claimed the same job");
    check(ids.length === 20, `concurrent claims: ${ids.length} of 20 due jobs claimed`);
  });

  await step("release", async (store) => {
    await store.upsert(sampleJob("r", 1_000));
    await store.claimDue(5_000, "A", 60_000, 1);
    check(
      !(await store.release("r", "B", { lastRunStatus: "ok" })),
      "release: a non-owner released the lease",
    );
    check(
      await store.release("r", "A", { lastRunStatus: "ok", nextRunAtMs: 65_000 }),
      "release: the owner could not release its lease",
    );
    const job = await store.get("r");
    check(job?.state.runningAtMs === undefined, "release: runningAtMs not cleared");
    check(
      job?.state.lastRunStatus === "ok" && job.state.nextRunAtMs === 65_000,
      "release: next state not merged",
    );
    check(!(await store.release("r", "A", {})), "release: released a lease twice");
    await store.claim("r", 6_000, "A", 60_000);
    check(
      (await store.claim("r", 6_000, "B", 60_000)) === undefined,
      "claim: a held job was claimed by another owner",
    );
    await store.release("r", "A", {}, { disable: true });
    check((await store.get("r"))?.enabled === false, "release: disable not applied");
    await store.claim("r", 7_000, "A", 60_000);
    await store.release("r", "A", {}, { remove: true });
    check((await store.get("r")) === undefined, "release: remove not applied");
  });

  await step("listPage", async (store) => {
    if (!store.listPage) return;
    for (let i = 0; i < 30; i++)
      await store.upsert(
        sampleJob(`p${String(i).padStart(2, "0")}`, i % 7 === 0 ? undefined : 5_000 - i, i % 5 !== 0),
      );
    // a claim and a release move jobs in the order; the pages follow
    await store.claimDue(10_000, "A", 60_000, 2);
    const claimed = (await store.list()).filter((job) => job.state.runningAtMs !== undefined);
    for (const job of claimed) await store.release(job.id, "A", { nextRunAtMs: 1 });
    const all = await store.list();
    const enabled = all.filter((job) => job.enabled);
    for (const [offset, limit] of [
      [0, 10],
      [10, 10],
      [25, 10],
      [40, 5],
    ] as const) {
      const page = await store.listPage({ offset, limit, includeDisabled: true });
      const want = all
        .slice(offset, offset + limit)
        .map((job) => job.id)
        .join(",");
      check(
        page.jobs.map((job) => job.id).join(",") === want && page.total === all.length,
        `listPage: page ${offset}+${limit} is not that slice of list()`,
      );
      const onlyEnabled = await store.listPage({ offset, limit });
      check(
        onlyEnabled.jobs.map((job) => job.id).join(",") ===
          enabled
            .slice(offset, offset + limit)
            .map((job) => job.id)
            .join(",") && onlyEnabled.total === enabled.length,
        `listPage: page ${offset}+${limit} of enabled jobs is not that slice of list()`,
      );
    }
    if (store.count) check((await store.count()) === 30, "count: not the number of stored jobs");
  });

  await step("runs", async (store) => {
    await store.upsert(sampleJob("x", 1_000));
    for (let i = 0; i < 5; i++)
      await store.appendRun({
        ts: 10 + i,
        jobId: "x",
        action: "finished",
        status: i === 2 ? "error" : "ok",
        runAtMs: i,
      });
    const page = await store.readRuns("x", { offset: 1, limit: 2 });
    check(page.total === 5, "runs: total is not the number of entries");
    check(page.entries.map((e) => e.ts).join(",") === "13,12", "runs: not newest first or paging wrong");
    check(page.hasMore && page.nextOffset === 3, "runs: hasMore / nextOffset wrong");
    await store.remove("x");
    check((await store.readRuns("x")).total === 0, "runs: the run log outlived its job");
  });

  if (options.twoInstances) await twoInstanceSteps(options.twoInstances, problems);

  return { ok: problems.length === 0, problems };
}
