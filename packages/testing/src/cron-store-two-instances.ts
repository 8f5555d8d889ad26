import type { CronStore, LeaderLease } from "@clawtools/core/contracts";
import { expect, it } from "./vitest-api.js";
import { delay } from "@clawtools/core/time";
import { sampleCronJob as job } from "./cron-sample-job.js";

/** Two stores (or leases) on one backend, as two processes (or machines) open them. */
export interface CronStoreTwoInstanceOptions {
  /** Two stores on one new, empty backend (a directory, a schema) each call. */
  makePair: () => Promise<[CronStore, CronStore]> | [CronStore, CronStore];
  /** Two leader leases on one new backend each call; the lease steps are declared when given. */
  makeLeasePair?: () => Promise<[LeaderLease, LeaderLease]> | [LeaderLease, LeaderLease];
}

/**
 * Each two-instance step by the name of its `it` block: what one instance writes the other sees,
 * concurrent writes from both lose nothing, a claim made through one holds in the other, and an
 * expired claim passes to the other, after which the old holder cannot release it.
 */
export const cronStoreTwoInstanceChecks: Record<string, (a: CronStore, b: CronStore) => Promise<void>> = {
  "two instances: concurrent upserts lose nothing; updates and removals are seen by the other": async (
    a,
    b,
  ) => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        a.upsert(job(`a${i}`, 2_000 + i)),
        b.upsert(job(`b${i}`, 3_000 + i)),
      ]).flat(),
    );
    expect(await a.list()).toHaveLength(40);
    expect(await b.list()).toHaveLength(40);
    await a.upsert({ ...job("a0", 2_000), name: "renamed in a" });
    expect((await b.get("a0"))?.name).toBe("renamed in a");
    await b.remove("a1");
    expect(await a.get("a1")).toBeUndefined();
  },

  "two instances: claims are exclusive across them, through claimDue and claim": async (a, b) => {
    for (let i = 0; i < 30; i++) await a.upsert(job(`c${String(i).padStart(2, "0")}`, 1_000 + (i % 7)));
    const claimer = async (store: CronStore, owner: string) => {
      const got: string[] = [];
      for (;;) {
        const batch = await store.claimDue(5_000, owner, 60_000, 3);
        if (batch.length === 0) return got;
        got.push(...batch.map((claimed) => claimed.id));
      }
    };
    const [fromA, fromB] = await Promise.all([claimer(a, "A"), claimer(b, "B")]);
    const all = [...fromA, ...fromB];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(30);
    expect(await b.nextWakeAtMs(5_000)).toBeUndefined();
    const held = all[0] as string;
    expect(await a.claim(held, 5_000, "A2", 60_000)).toBeUndefined();
    expect(await b.claim(held, 5_000, "B2", 60_000)).toBeUndefined();
  },

  "two instances: an expired claim is taken over by the other; the old owner can no longer release it":
    async (a, b) => {
      await a.upsert(job("x", 1_000));
      expect(await a.claimDue(1_000, "A", 5_000, 10)).toHaveLength(1);
      expect(await b.claimDue(5_999, "B", 5_000, 10)).toEqual([]);
      expect(await b.claim("x", 5_999, "B", 5_000)).toBeUndefined();
      const taken = await b.claimDue(6_000, "B", 5_000, 10);
      expect(taken[0]?.state.runningAtMs).toBe(6_000);
      expect(await a.release("x", "A", { lastRunStatus: "ok" })).toBe(false);
      expect(await b.release("x", "B", { lastRunStatus: "ok", nextRunAtMs: 66_000 })).toBe(true);
      const state = (await a.get("x"))?.state;
      expect(state).toMatchObject({ nextRunAtMs: 66_000, lastRunStatus: "ok" });
      expect(state?.runningAtMs).toBeUndefined();
    },
};

/**
 * The leader-lease steps: one holder at a time; a lease left to expire passes to the other, after
 * which the old holder can neither renew nor release it. Real time: the lease runs out 1 ms after
 * its last renewal, and the other instance polls until it takes it.
 */
export async function leaderLeaseTwoInstanceCheck(a: LeaderLease, b: LeaderLease): Promise<void> {
  expect(await a.acquire("cron", "A", 60_000)).toBe(true);
  expect(await b.acquire("cron", "B", 60_000)).toBe(false);
  expect(await b.renew("cron", "B", 60_000)).toBe(false);
  expect(await a.renew("cron", "A", 1)).toBe(true);
  const deadline = Date.now() + 10_000;
  let taken = false;
  while (!taken && Date.now() <= deadline) {
    taken = await b.acquire("cron", "B", 60_000);
    if (!taken) await delay(5);
  }
  expect(taken, "an expired leader lease was not taken over within 10 s").toBe(true);
  expect(await a.renew("cron", "A", 60_000)).toBe(false);
  await a.release("cron", "A");
  expect(await a.acquire("cron", "A", 60_000)).toBe(false);
  await b.release("cron", "B");
  expect(await a.acquire("cron", "A", 60_000)).toBe(true);
}

/** Declares the two-instance steps (inside the caller's describe block). */
export function cronStoreTwoInstanceSteps(options: CronStoreTwoInstanceOptions): void {
  for (const [name, check] of Object.entries(cronStoreTwoInstanceChecks))
    it(name, async () => {
      const [a, b] = await options.makePair();
      await check(a, b);
    });
  const leases = options.makeLeasePair;
  if (leases)
    it("two instances: one leader at a time; an expired leader lease passes to the other", async () => {
      const [a, b] = await leases();
      await leaderLeaseTwoInstanceCheck(a, b);
    });
}
