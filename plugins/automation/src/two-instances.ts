import type { CronStore, LeaderLease } from "./cron/interfaces.js";
import type { CronJob } from "./cron/types.js";

/** Two stores (or leases) on one backend, as two processes would open them. */
export interface TwoInstanceOptions {
  /** Two stores on one new, empty backend (a directory, a schema). */
  makePair: () => Promise<[CronStore, CronStore]>;
  /** Two leader leases on one backend; its lease steps run when given. */
  makeLeasePair?: () => Promise<[LeaderLease, LeaderLease]>;
}

function job(id: string, nextRunAtMs: number): CronJob {
  return {
    id,
    name: `job ${id}`,
    enabled: true,
    createdAtMs: 1_000,
    updatedAtMs: 1_000,
    schedule: { kind: "every", everyMs: 60_000, anchorMs: 0 },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: `hello ${id}` },
    state: { nextRunAtMs },
  };
}

/**
 * The two-instance steps of the CronStore conformance suite: what one instance writes the other
 * sees, concurrent writes from both lose nothing, a claim made through one holds in the other,
 * and an expired claim (or leader lease) passes to the other, after which the old holder cannot
 * release (or renew) it. Problems are pushed onto `problems`, as the rest of the suite does.
 */
export async function twoInstanceSteps(options: TwoInstanceOptions, problems: string[]): Promise<void> {
  const check = (condition: boolean, what: string) => {
    if (!condition) problems.push(what);
  };
  const step = async <T>(name: string, make: () => Promise<[T, T]>, fn: (a: T, b: T) => Promise<void>) => {
    try {
      const [a, b] = await make();
      await fn(a, b);
    } catch (error) {
      problems.push(`${name}: threw ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  await step("two instances: no lost update", options.makePair, async (a, b) => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        a.upsert(job(`a${i}`, 2_000 + i)),
        b.upsert(job(`b${i}`, 3_000 + i)),
      ]).flat(),
    );
    const fromA = (await a.list()).length;
    const fromB = (await b.list()).length;
    check(
      fromA === 40 && fromB === 40,
      `two instances: concurrent upserts lost jobs (${fromA} and ${fromB} of 40 listed)`,
    );
    await a.upsert({ ...job("a0", 2_000), name: "renamed in a" });
    check(
      (await b.get("a0"))?.name === "renamed in a",
      "two instances: an update made in one is not seen by the other",
    );
    await b.remove("a1");
    check(
      (await a.get("a1")) === undefined,
      "two instances: a job removed in one is still seen by the other",
    );
  });

  await step("two instances: exclusive claims", options.makePair, async (a, b) => {
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
    check(new Set(all).size === all.length, "two instances: both claimed the same job");
    check(all.length === 30, `two instances: ${all.length} of 30 due jobs claimed`);
    check(
      (await b.nextWakeAtMs(5_000)) === undefined,
      "two instances: a job claimed in one is due in the other",
    );
    const held = all[0] as string;
    check(
      (await a.claim(held, 5_000, "A2", 60_000)) === undefined &&
        (await b.claim(held, 5_000, "B2", 60_000)) === undefined,
      "two instances: a claimed job was claimed again through claim()",
    );
  });

  await step("two instances: claim expiry and takeover", options.makePair, async (a, b) => {
    await a.upsert(job("x", 1_000));
    const first = await a.claimDue(1_000, "A", 5_000, 10);
    check(first.length === 1, "two instances: the due job was not claimed");
    check(
      (await b.claimDue(5_999, "B", 5_000, 10)).length === 0,
      "two instances: a live claim was taken over",
    );
    check((await b.claim("x", 5_999, "B", 5_000)) === undefined, "two instances: claim() took a live claim");
    const taken = await b.claimDue(6_000, "B", 5_000, 10);
    check(taken[0]?.state.runningAtMs === 6_000, "two instances: an expired claim was not taken over");
    check(
      !(await a.release("x", "A", { lastRunStatus: "ok" })),
      "two instances: the old owner released a job taken over",
    );
    check(
      await b.release("x", "B", { lastRunStatus: "ok", nextRunAtMs: 66_000 }),
      "two instances: the new owner could not release its claim",
    );
    const state = (await a.get("x"))?.state;
    check(
      state?.nextRunAtMs === 66_000 && state.lastRunStatus === "ok" && state.runningAtMs === undefined,
      "two instances: a release made in one is not seen by the other",
    );
  });

  const leases = options.makeLeasePair;
  if (!leases) return;
  await step("two instances: leader lease", leases, async (a, b) => {
    check(await a.acquire("cron", "A", 60_000), "leader lease: a free lease was not acquired");
    check(!(await b.acquire("cron", "B", 60_000)), "leader lease: two holders at once");
    check(!(await b.renew("cron", "B", 60_000)), "leader lease: a non-holder renewed it");
    check(await a.renew("cron", "A", 1), "leader lease: the holder could not renew it");
    // A stops renewing: its lease ends 1 ms from now
    const deadline = Date.now() + 10_000;
    let taken = false;
    for (;;) {
      taken = await b.acquire("cron", "B", 60_000);
      if (taken || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    check(taken, "leader lease: an expired lease was not taken over");
    check(!(await a.renew("cron", "A", 60_000)), "leader lease: the old holder renewed a lease taken over");
    await a.release("cron", "A");
    check(!(await a.acquire("cron", "A", 60_000)), "leader lease: a non-holder's release freed it");
    await b.release("cron", "B");
    check(await a.acquire("cron", "A", 60_000), "leader lease: a released lease could not be acquired");
  });
}
