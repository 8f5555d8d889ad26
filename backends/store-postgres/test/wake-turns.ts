import { CronExecutor, CronService } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import { describe, expect, it, vi } from "vitest";
import { oneShot } from "./one-shot-job.js";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

const MAIN = "agent:main:main";

/** Counts a store's claims (those that took jobs, those that found none) and the claim notices it hears. */
function counted(store: PostgresStore) {
  const cron = store.cron;
  const counts = { took: 0, empty: 0, heard: 0 };
  const claim = cron.claimDueWithNext.bind(cron);
  cron.claimDueWithNext = async (...args) => {
    const result = await claim(...args);
    if (result.jobs.length > 0) counts.took++;
    else counts.empty++;
    return result;
  };
  const onClaim = cron.onClaim.bind(cron);
  cron.onClaim = (listener) =>
    onClaim((owner, next) => {
      if (owner !== "*") counts.heard++;
      listener(owner, next);
    });
  return counts;
}

/**
 * Schedulers on one database take turns to wake first at each due time: a claim that took jobs
 * says so (a "claim" notice with the next due time it left), and the others move their timers
 * past it instead of each sending a claim that finds nothing.
 */
export function wakeTurnSuite(url: () => string): void {
  describe("claim notices and wake turns", () => {
    it("a claim that took jobs announces its owner and the next due time it left; one that took none is silent; the live processes are numbered alike everywhere", async () => {
      const schema = "claim_notices";
      const a = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const b = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const c = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      let closed = false;
      try {
        const heard: Array<[string, number | null | undefined]> = [];
        const off = await b.cron.onClaim((owner, next) => heard.push([owner, next]));
        for (const [id, at] of [
          ["n1", 1_000],
          ["n2", 1_000],
          ["n3", 5_000],
        ] as const)
          await a.cron.upsert(oneShot(id, at));
        // nothing due: no notice
        expect((await a.cron.claimDueWithNext(500, "A", 60_000, 10)).jobs).toEqual([]);
        const first = await a.cron.claimDueWithNext(1_000, "A", 60_000, 10);
        expect(first.jobs.map((j) => j.id)).toEqual(["n1", "n2"]);
        expect(first.nextWakeAtMs).toBe(5_000);
        await vi.waitFor(() => expect(heard).toEqual([["A", 5_000]]));
        // the other claimer finds nothing at the same time and says nothing
        expect((await c.cron.claimDueWithNext(1_000, "C", 60_000, 10)).jobs).toEqual([]);
        const last = await c.cron.claimDueWithNext(5_000, "C", 60_000, 10);
        expect(last.jobs.map((j) => j.id)).toEqual(["n3"]);
        await vi.waitFor(() =>
          expect(heard).toEqual([
            ["A", 5_000],
            ["C", null],
          ]),
        );
        off();
        // three live processes, numbered 0, 1, 2 by each of them alike
        const numbered = await Promise.all([a, b, c].map((s) => s.cron.claimers()));
        expect(numbered.map((n) => n.count)).toEqual([3, 3, 3]);
        expect(numbered.map((n) => n.rank).sort()).toEqual([0, 1, 2]);
        await c.close();
        closed = true;
        const after = await Promise.all([a, b].map((s) => s.cron.claimers()));
        expect(after.map((n) => n.count)).toEqual([2, 2]);
        expect(after.map((n) => n.rank).sort()).toEqual([0, 1]);
      } finally {
        await a.close();
        await b.close();
        if (!closed) await c.close();
      }
    });

    it("3 schedulers fire 30 jobs due 100 ms apart exactly once, spread over all three, with one claim per due time instead of three", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const schema = "wake_turns";
      const stores: PostgresStore[] = [];
      const counts: Array<ReturnType<typeof counted>> = [];
      const services: CronService[] = [];
      const fired = new Map<string, string[]>();
      try {
        for (const owner of ["A", "B", "C"]) {
          const store = await openPostgresStore({ connectionString: url(), schema, maxConnections: 3 });
          stores.push(store);
          counts.push(counted(store));
          const executor = new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock });
          const run = executor.run.bind(executor);
          executor.run = async (job, ...rest) => {
            fired.set(owner, [...(fired.get(owner) ?? []), job.id]);
            return run(job, ...rest);
          };
          // probes far apart: the only wake-ups are due times (and the turns after them)
          const service = new CronService({
            store: store.cron,
            lease: store.lease,
            clock,
            owner,
            executor,
            probeMs: 60_000,
            maxConcurrentRuns: 4,
          });
          await service.start();
          services.push(service);
        }
        const start = clock.now();
        const ids = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, "0")}`);
        for (const [i, id] of ids.entries())
          await stores[0]?.cron.upsert(oneShot(id, start + 1_000 + 100 * i));
        // each step waits for the runs and for every claim notice to reach every scheduler
        const settle = async () => {
          for (const service of services) await service.idle();
          const took = counts.reduce((sum, c) => sum + c.took, 0);
          await vi.waitFor(() => {
            for (const c of counts) expect(c.heard).toBe(took);
          });
        };
        // the adds' notices re-arm the timers; then time runs through every due time
        await vi.waitFor(async () => {
          await settle();
          expect(clock.nextDue()).toBeLessThanOrEqual(start + 1_000 + 2 * 20);
        });
        await clock.advanceTo(start + 5_000, settle);

        const history = await stores[0]?.sessions.history(MAIN, { limit: 100 });
        expect(history?.map((m) => String(m.content)).sort()).toEqual(ids.map((id) => `System: ${id}`));
        const all = [...fired.values()].flat();
        expect(all.sort()).toEqual(ids);
        // the first turn rotates with the due time: every scheduler fired some
        expect([...fired.keys()].sort()).toEqual(["A", "B", "C"]);
        // one claim took each due time's job; a claim that found nothing is rare (a scheduler's
        // first claim, before it knows what is due), where each used to send one at every due time
        expect(counts.reduce((sum, c) => sum + c.took, 0)).toBe(ids.length);
        const empty = counts.reduce((sum, c) => sum + c.empty, 0);
        console.log(`claims that found nothing: ${empty} for ${ids.length} due times at 3 schedulers`);
        expect(empty).toBeLessThan(ids.length / 3);
      } finally {
        for (const service of services) await service.stop();
        for (const store of stores) await store.close();
      }
    }, 60_000);
  });
}
