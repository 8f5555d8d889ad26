import { CronExecutor, CronService } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import type pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

const MAIN = "agent:main:main";

/** The names of the prepared statements a store sends through its pool (schema.name). */
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

/**
 * Jobs a claim took beyond the free run slots wait in the scheduler's queue; with the store's
 * change notices reaching it, one runs as its claim read it unless a notice named it since.
 */
export function queuedClaimSuite(url: () => string): void {
  describe("claimed jobs waiting for a run slot", () => {
    it("run as their claim read them, with no second read; one edited meanwhile is read again and not run", async () => {
      const clock = new FakeClock(Date.parse("2026-03-01T09:00:00Z"));
      const schema = "queued_claims";
      const sa = await openPostgresStore({ connectionString: url(), schema, maxConnections: 3 });
      const sb = await openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const sent = named(sa);
      const executor = new CronExecutor({ sessions: sa.sessions, defaultAgentId: "main", clock });
      // the first run waits until the test lets it go: the others wait in the queue meanwhile
      let open: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      let started = 0;
      const run = executor.run.bind(executor);
      executor.run = async (...args) => {
        if (started++ === 0) await gate;
        return run(...args);
      };
      // as a store that does not take turns (no `claimers`): schedulers taking turns claim only
      // their free slots, so nothing would wait in the queue
      const store = Object.assign(Object.create(sa.cron) as typeof sa.cron, { claimers: undefined });
      const service = new CronService({ store, clock, owner: "A", executor, maxConcurrentRuns: 1 });
      const settle = () => service.idle({ runs: false });
      try {
        await service.start();
        const start = clock.now();
        const ids = ["q-0", "q-1", "q-2", "q-3"];
        // the notices of the adds reach the scheduler (listening first) before the claim: a notice
        // that came while the claim was on its way would rightly have the job read again
        const noticed = new Set<string>();
        const off = await sa.cron.onChange((id) => noticed.add(id));
        for (const id of ids)
          await sb.cron.upsert({
            id,
            name: id,
            enabled: true,
            createdAtMs: start,
            updatedAtMs: start,
            schedule: { kind: "at", at: new Date(start + 1_000).toISOString() },
            sessionTarget: "main",
            wakeMode: "now",
            payload: { kind: "systemEvent", text: id },
            state: { nextRunAtMs: start + 1_000 },
          });
        await vi.waitFor(() => expect([...noticed].sort()).toEqual(ids));
        off();
        await clock.advanceTo(start + 1_000, settle);
        expect(started).toBe(1);
        expect((await service.status()).claims.queued).toEqual(["q-1", "q-2", "q-3"]);
        // q-2 is turned off through another store while it waits; its notice reaches this process
        const heard = new Promise<void>((resolve) => {
          void sa.cron.onChange((id) => id === "q-2" && resolve());
        });
        const edited = await sb.cron.get("q-2");
        const { runningAtMs: _claimed, ...state } = edited?.state ?? {};
        await sb.cron.upsert({ ...(edited as NonNullable<typeof edited>), enabled: false, state });
        await heard;
        sent.length = 0;
        open();
        await service.idle();
        const history = await sa.sessions.history(MAIN);
        expect(history.map((m) => m.content)).toEqual(["System: q-0", "System: q-1", "System: q-3"]);
        // before: each waiting job was read again before it ran (three reads); now only the edited one
        expect(sent.filter((name) => name === `${schema}.cron-get`)).toHaveLength(1);
        expect((await sa.cron.get("q-2"))?.state.runningAtMs).toBeUndefined();
      } finally {
        open();
        await service.stop();
        await sa.close();
        await sb.close();
      }
    });
  });
}
