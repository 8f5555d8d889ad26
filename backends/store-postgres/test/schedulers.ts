import { CronExecutor, CronService } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import { describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

const MAIN = "agent:main:main";

/** Two real cron schedulers, each on its own pool, firing one job: once per tick, also after one stops. */
export function schedulerSuite(url: () => string): void {
  describe("two cron schedulers on one database", () => {
    it("fire each tick of a job exactly once, and the survivor goes on alone when the other stops", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const stores: PostgresStore[] = [];
      const scheduler = async (owner: string) => {
        const store = await openPostgresStore({
          connectionString: url(),
          schema: "schedulers",
          maxConnections: 4,
        });
        stores.push(store);
        const service = new CronService({
          store: store.cron,
          clock,
          owner,
          executor: new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock }),
        });
        await service.start();
        return service;
      };
      const a = await scheduler("A");
      const b = await scheduler("B");
      let alive = [a, b];
      const settle = async () => {
        for (const service of alive) await service.idle();
      };
      try {
        const start = clock.now();
        const job = await a.add({
          schedule: { kind: "every", everyMs: 60_000, anchorMs: start + 10_000 },
          payload: { kind: "systemEvent", text: "ping" },
        });
        await clock.advance(300_000, settle); // ticks at +10 s, +70 s, … +250 s: 5
        const sessions = stores[1]?.sessions;
        expect((await sessions?.history(MAIN))?.map((m) => m.content)).toEqual(Array(5).fill("System: ping"));
        await a.stop();
        alive = [b];
        await clock.advance(240_000, settle); // +310 s … +490 s: 4 more, all B's
        expect(await sessions?.history(MAIN)).toHaveLength(9);
        const runs = await b.runs(job.id, { limit: 50 });
        expect(runs.total).toBe(9);
        expect(new Set(runs.entries.map((e) => e.runAtMs)).size).toBe(9);
      } finally {
        for (const service of alive) await service.stop();
        for (const store of stores) await store.close();
      }
    });

    it("cron list pages and status counts in SQL (listPage, count): the whole job list is never read", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const store = await openPostgresStore({ connectionString: url(), schema: "paging", maxConnections: 2 });
      let fullReads = 0;
      const list = store.cron.list.bind(store.cron);
      store.cron.list = () => {
        fullReads++;
        return list();
      };
      const service = new CronService({
        store: store.cron,
        clock,
        executor: new CronExecutor({ sessions: store.sessions, defaultAgentId: "main", clock }),
        enabled: false,
      });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 7; i++) {
          const job = await service.add({
            name: `job-${i}`,
            enabled: i !== 3,
            schedule: { kind: "every", everyMs: 60_000 * (i + 1) },
            payload: { kind: "systemEvent", text: `n${i}` },
          });
          ids.push(job.id);
        }
        fullReads = 0;
        const page = await service.list({ offset: 2, limit: 3 });
        // enabled jobs in next-run order (every 1 min, 2, 3, 5, 6, 7 min): the third to fifth
        expect(page.jobs.map((j) => j.name)).toEqual(["job-2", "job-4", "job-5"]);
        expect(page).toMatchObject({ total: 6, offset: 2, limit: 3, hasMore: true, nextOffset: 5 });
        const all = await service.list({ includeDisabled: true, offset: 6, limit: 5 });
        expect(all).toMatchObject({ total: 7, hasMore: false, nextOffset: null });
        // the disabled job has no next run: it comes last
        expect(all.jobs.map((j) => j.name)).toEqual(["job-3"]);
        expect((await service.status()).jobs).toBe(7);
        expect(fullReads).toBe(0);
      } finally {
        await service.stop();
        await store.close();
      }
    });
  });
}
