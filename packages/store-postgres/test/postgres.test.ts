import { runCronStoreConformance } from "@clawtools/automation/testing";
import { runRegistryConformance, sessionStoreConformance } from "@clawtools/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { type Cluster, HAVE_POSTGRES, SKIP_REASON, startCluster } from "./cluster.js";
import { livenessSuite } from "./liveness.js";
import { schedulerSuite } from "./schedulers.js";
import { twoInstanceSuite } from "./two-instances.js";

if (!HAVE_POSTGRES) console.warn(`@clawtools/store-postgres tests skipped: ${SKIP_REASON}`);

/*
 * One throwaway cluster for the whole file; each conformance store gets its own schema on one
 * shared pool (the suites never close what their factories make), the two-instance steps open
 * separate pools as separate processes would.
 */
describe.skipIf(!HAVE_POSTGRES)(
  HAVE_POSTGRES ? "PostgreSQL stores" : `PostgreSQL stores (skipped: ${SKIP_REASON})`,
  () => {
    const ctx: { cluster?: Cluster; pool?: pg.Pool } = {};
    const opened: PostgresStore[] = [];
    let schemas = 0;
    const fresh = async () => {
      const store = await openPostgresStore({ pool: ctx.pool, schema: `conf_${++schemas}` });
      opened.push(store);
      return store;
    };

    beforeAll(async () => {
      ctx.cluster = await startCluster();
      ctx.pool = new pg.Pool({ connectionString: ctx.cluster.url, max: 10 });
    }, 120_000);

    afterAll(async () => {
      for (const store of opened) await store.close();
      await ctx.pool?.end();
      await ctx.cluster?.stop();
    }, 60_000);

    sessionStoreConformance(async () => (await fresh()).sessions, { name: "PgSessionStore conformance" });
    runRegistryConformance(async () => (await fresh()).runs, { name: "PgRunRegistry conformance" });

    it("PgCronStore passes the CronStore conformance suite", async () => {
      const report = await runCronStoreConformance(async () => (await fresh()).cron);
      expect(report.problems).toEqual([]);
    });

    it("migrations: two processes starting together apply each step once, recorded in a migrations table", async () => {
      const url = ctx.cluster?.url as string;
      const [a, b] = await Promise.all([
        openPostgresStore({ connectionString: url, schema: "racing" }),
        openPostgresStore({ connectionString: url, schema: "racing" }),
      ]);
      const rows = (await ctx.pool?.query("SELECT version, name FROM racing.migrations ORDER BY version"))
        ?.rows;
      expect(rows).toEqual([
        { version: 1, name: "sessions, transcripts, runs, cron jobs, run logs, leases" },
      ]);
      expect(a.location).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres#racing$/);
      await Promise.all([a.close(), b.close()]);
      // a third start finds everything applied
      const c = await openPostgresStore({ connectionString: url, schema: "racing" });
      expect((await ctx.pool?.query("SELECT count(*)::int AS n FROM racing.migrations"))?.rows[0].n).toBe(1);
      await c.close();
    });

    it("a job reads back byte for byte as stored (text, not jsonb)", async () => {
      const { cron } = await fresh();
      const job = {
        id: "keys",
        name: "n",
        enabled: true,
        createdAtMs: 1,
        updatedAtMs: 1,
        schedule: { kind: "every" as const, everyMs: 60_000 },
        sessionTarget: "main" as const,
        wakeMode: "now" as const,
        payload: { kind: "systemEvent" as const, text: "zebra first", zz: 1, a: 2 } as never,
        state: { nextRunAtMs: 5 },
      };
      await cron.upsert(job);
      expect(JSON.stringify(await cron.get("keys"))).toBe(JSON.stringify(job));
    });

    twoInstanceSuite(() => ctx.cluster?.url as string);
    livenessSuite(() => ctx.cluster?.url as string);
    schedulerSuite(() => ctx.cluster?.url as string);
  },
);
