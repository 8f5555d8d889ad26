import { CronExecutor, CronService } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import { sampleCronJob as job } from "@clawtools/testing";
import type pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { cutOff } from "./cut-off.js";

const MAIN = "agent:main:main";

/** The names of the prepared statements a store sends through its pool. */
function named(store: PostgresStore): string[] {
  const sent: string[] = [];
  const pool = (store.sessions as unknown as { db: { pool: pg.Pool } }).db.pool;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as { name?: string } | string;
    if (typeof first === "object" && first.name) sent.push(first.name);
    return query(...args);
  };
  return sent;
}

/** One-shot systemEvent jobs due `gapMs` apart from `firstMs`, added through `store`. */
async function addDue(store: PostgresStore, startMs: number, firstMs: number, gapMs: number, n: number) {
  const due = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const id = `due-${String(i).padStart(2, "0")}`;
    const at = firstMs + gapMs * i;
    due.set(id, at);
    await store.cron.upsert({
      id,
      name: id,
      enabled: true,
      createdAtMs: startMs,
      updatedAtMs: startMs,
      schedule: { kind: "at", at: new Date(at).toISOString() },
      sessionTarget: "main",
      wakeMode: "now",
      payload: { kind: "systemEvent", text: id },
      state: { nextRunAtMs: at },
    });
  }
  return due;
}

/**
 * Schedulers sharing a database claim the jobs due shortly after now too and start each at its
 * time: the others sleep past them instead of all waking at every due time to find it taken.
 */
export function claimAheadSuite(url: () => string): void {
  describe("claims ahead of their time", () => {
    it("a claim with a look-ahead takes the jobs due within it, and the next due time of what it left", async () => {
      const store = await openPostgresStore({
        connectionString: url(),
        schema: "ahead_store",
        maxConnections: 2,
      });
      try {
        for (const [id, at] of [
          ["a", 1_000],
          ["b", 1_200],
          ["c", 1_400],
        ] as const)
          await store.cron.upsert(job(id, at));
        const claimed = await store.cron.claimDueWithNext(1_000, "A", 600_000, 10, 300);
        expect(claimed.jobs.map((j) => j.id)).toEqual(["a", "b"]);
        expect(claimed.nextWakeAtMs).toBe(1_400);
        // marked running from the claim: another claimer skips them, as it skips any live claim
        expect(await store.cron.claimDueWithNext(1_300, "B", 600_000, 10, 300)).toMatchObject({
          jobs: [{ id: "c" }],
          nextWakeAtMs: undefined,
        });
        // without a look-ahead only what is due is taken (the default, and under a cap)
        await store.cron.upsert(job("d", 2_000));
        expect((await store.cron.claimDueWithNext(1_900, "B", 600_000, 10)).jobs).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("two schedulers fire jobs due close together each once at its own time, with fewer claims than jobs and no job read again", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const stores: PostgresStore[] = [];
      const sent: string[][] = [];
      const make = async (owner: string) => {
        const store = await openPostgresStore({
          connectionString: url(),
          schema: "ahead_fire",
          maxConnections: 3,
        });
        stores.push(store);
        sent.push(named(store));
        return new CronService({
          store: store.cron,
          lease: store.lease,
          clock,
          owner,
          executor: new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock }),
        });
      };
      const services = [await make("A"), await make("B")];
      const settle = async () => {
        for (const service of services) await service.idle();
      };
      try {
        for (const service of services) await service.start();
        const start = clock.now();
        const due = await addDue(stores[0] as PostgresStore, start, start + 1_000, 40, 12);
        // the notices of the adds re-arm the schedulers before the clock moves
        await vi.waitFor(async () => {
          await settle();
          expect(clock.nextDue()).toBe(start + 1_000);
        });
        for (const list of sent) list.length = 0;
        await clock.advance(5_000, settle);
        const history = await stores[1]?.sessions.history(MAIN);
        expect(history?.map((m) => m.content).sort()).toEqual([...due.keys()].map((id) => `System: ${id}`));
        for (const [id, at] of due) {
          const runs = await services[0]?.runs(id, { limit: 10 });
          expect(runs?.entries.map((e) => [e.status, e.runAtMs])).toEqual([["ok", at]]);
        }
        const all = sent.flat();
        // before: every due time woke both schedulers to claim (at least one claim a job), and a
        // job waiting in a batch was read again before it ran
        expect(all.filter((name) => name === "cron-claim-due-next").length).toBeLessThan(due.size / 2);
        expect(all.filter((name) => name === "cron-get")).toEqual([]);
      } finally {
        for (const service of services) await service.stop();
        for (const store of stores) await store.close();
      }
    });

    it("jobs a cut-off scheduler claimed ahead run once, by the other at its next sweep", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const stores: PostgresStore[] = [];
      const make = async (owner: string) => {
        const store = await openPostgresStore({
          connectionString: url(),
          schema: "ahead_cut",
          maxConnections: 3,
        });
        stores.push(store);
        return new CronService({
          store: store.cron,
          lease: store.lease,
          clock,
          owner,
          probeMs: 500,
          executor: new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock }),
        });
      };
      const services = [await make("A"), await make("B")];
      let alive = [...services];
      const settle = async () => {
        for (const service of alive) await service.idle();
      };
      try {
        for (const service of services) await service.start();
        const start = clock.now();
        const due = await addDue(stores[0] as PostgresStore, start, start + 1_000, 100, 3);
        // (a probe at +500 ms arms each timer at the first due time, notices or not)
        // the first is due: one scheduler runs it and holds the next two, claimed ahead
        await clock.advanceTo(start + 1_000, settle);
        const holders = await Promise.all(
          services.map((s) => s.status().then((st) => st.claims?.queued ?? [])),
        );
        const holder = holders.findIndex((queued) => queued.length === 2);
        expect(holder).toBeGreaterThanOrEqual(0);
        const cut = services[holder] as CronService;
        await cutOff(url(), stores[holder] as PostgresStore);
        alive = services.filter((s) => s !== cut);
        await cut.stop().catch(() => {});
        await clock.advance(3_000, settle);
        const history = await stores[1 - holder]?.sessions.history(MAIN);
        expect(history?.map((m) => m.content).sort()).toEqual([...due.keys()].map((id) => `System: ${id}`));
        const survivor = alive[0] as CronService;
        for (const [id, at] of due) {
          const runs = (await survivor.runs(id, { limit: 10 })).entries.filter((e) => e.status === "ok");
          expect(runs).toHaveLength(1);
          // the held ones at the survivor's first sweep after the cut (one probe), none before its time
          expect(runs[0]?.runAtMs).toBeGreaterThanOrEqual(at);
          expect(runs[0]?.runAtMs).toBeLessThanOrEqual(start + 1_000 + 500);
        }
        // no claim left to the cut-off one
        expect((await survivor.list({ includeDisabled: true })).jobs.map((j) => j.state.runningAtMs)).toEqual(
          [undefined, undefined, undefined],
        );
      } finally {
        for (const service of alive) await service.stop();
        for (const store of stores) await store.close();
      }
    });
  });
}
