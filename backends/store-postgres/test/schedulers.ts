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
  });
}
