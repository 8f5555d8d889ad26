import {
  cronStoreConformance,
  runRegistryConformance,
  sessionStoreConformance,
  sessionStorePagingConformance,
  taskStoreConformance,
} from "@clawtools/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { claimerSuite } from "./claimers.js";
import { type Cluster, HAVE_POSTGRES, SKIP_REASON, startCluster } from "./cluster.js";
import { clusterCapSuite } from "./cluster-cap.js";
import { connectionLivenessSuite } from "./connection-liveness.js";
import { followerSuite } from "./followers.js";
import { livenessSuite } from "./liveness.js";
import { pageReadSuite } from "./page-reads.js";
import { queuedClaimSuite } from "./queued-claims.js";
import { remoteRunsSuite } from "./remote-runs.js";
import { schedulerSuite } from "./schedulers.js";
import { statementPlanSuite } from "./statement-plans.js";
import { twoInstanceSuite } from "./two-instances.js";
import { wakeTurnSuite } from "./wake-turns.js";

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
    sessionStorePagingConformance(async () => (await fresh()).sessions, { name: "PgSessionStore paging" });
    runRegistryConformance(async () => (await fresh()).runs, { name: "PgRunRegistry conformance" });

    // two bundles on one new schema, each with its own pool: two processes on one database
    const pair = async () => {
      const schema = `pair_${++schemas}`;
      const url = ctx.cluster?.url as string;
      const a = await openPostgresStore({ connectionString: url, schema, maxConnections: 3 });
      const b = await openPostgresStore({ connectionString: url, schema, maxConnections: 3 });
      opened.push(a, b);
      return [a, b] as const;
    };
    taskStoreConformance({
      name: "PgTaskStore conformance (two stores on one database)",
      makePair: async () => {
        const [a, b] = await pair();
        return [a.tasks, b.tasks];
      },
    });
    cronStoreConformance(async () => (await fresh()).cron, {
      name: "PgCronStore and PgLeaderLease: CronStore conformance, two-instance steps included",
      twoInstances: {
        makePair: async () => {
          const [a, b] = await pair();
          return [a.cron, b.cron];
        },
        makeLeasePair: async () => {
          const [a, b] = await pair();
          return [a.lease, b.lease];
        },
      },
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
        { version: 2, name: "member epochs: claims and the leader lease bound to their holder's connection" },
        { version: 3, name: "MCP tasks: one JSON document per task" },
        { version: 4, name: "claim_due_capped: due jobs claimed under a cluster-wide cap" },
        { version: 5, name: "runs bound to their holder's connection: the holder's member epoch" },
        {
          version: 6,
          name: "session list pages in index order: newest first, ties by key, per agent and overall",
        },
        { version: 7, name: "the runs a liveness pass judges: running, or their announce pending" },
      ]);
      expect(a.location).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres#racing$/);
      await Promise.all([a.close(), b.close()]);
      // a third start finds everything applied
      const c = await openPostgresStore({ connectionString: url, schema: "racing" });
      expect((await ctx.pool?.query("SELECT count(*)::int AS n FROM racing.migrations"))?.rows[0].n).toBe(7);
      await c.close();
    });

    it("a job reads back byte for byte as stored (text, not jsonb)", async () => {
      const { cron, location } = await fresh();
      // a pool the caller made still names where it points
      expect(location).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres#conf_\d+$/);
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

    it("an append to an unknown or deleted session is refused and writes nothing, one message or several, keyed or not", async () => {
      const { sessions } = await fresh();
      const one = [{ role: "user" as const, content: "one", timestamp: 1 }];
      const two = [...one, { role: "user" as const, content: "two", timestamp: 2 }];
      for (const [messages, options] of [
        [one, {}],
        [two, {}],
        [one, { idempotencyKey: "k" }],
      ] as const) {
        await expect(sessions.append("agent:main:none", [...messages], options)).rejects.toThrow(
          "Session not found: agent:main:none",
        );
      }
      // appends racing a delete: each lands before it (and goes with it) or is refused after it
      await sessions.create({ key: "agent:main:gone", agentId: "main" });
      const raced = await Promise.allSettled([
        ...Array.from({ length: 10 }, (_, i) =>
          sessions.append("agent:main:gone", [{ role: "user", content: `m${i}`, timestamp: i }]),
        ),
        sessions.delete("agent:main:gone"),
        ...Array.from({ length: 10 }, (_, i) =>
          sessions.append("agent:main:gone", [{ role: "user", content: `n${i}`, timestamp: i }]),
        ),
      ]);
      for (const r of raced)
        if (r.status === "rejected") expect(String(r.reason)).toContain("Session not found: agent:main:gone");
      await sessions.create({ key: "agent:main:gone", agentId: "main" });
      expect(await sessions.history("agent:main:gone")).toEqual([]);
    });

    it("a NUL byte in a session key answers as an unknown session does, never PostgreSQL's encoding error", async () => {
      const { sessions } = await fresh();
      await sessions.create({ key: "agent:main:real", agentId: "main", label: "real" });
      for (const key of ["agent:main:real\0", "agent:main:\0x", "\0"]) {
        expect(await sessions.get(key)).toBeUndefined();
        expect(await sessions.resolve({ key })).toBeUndefined();
        expect(await sessions.history(key)).toEqual([]);
        expect(await sessions.delete(key)).toBe(false);
        await expect(sessions.append(key, [{ role: "user", content: "hi", timestamp: 1 }])).rejects.toThrow(
          `Session not found: ${key}`,
        );
        await expect(sessions.patch(key, { label: "x" })).rejects.toThrow(`Session not found: ${key}`);
      }
      expect(await sessions.resolve({ sessionId: "a\0b" })).toBeUndefined();
      expect(await sessions.resolve({ label: "real\0" })).toBeUndefined();
      expect(await sessions.list({ agentId: "main\0" })).toEqual([]);
      await expect(sessions.create({ key: "agent:main:\0", agentId: "main" })).rejects.toThrow(
        "Session key, id, agent and label cannot contain a NUL byte",
      );
      // the real session is untouched
      expect((await sessions.get("agent:main:real"))?.label).toBe("real");
    });

    it("hostile or odd input: values never reach the SQL text, bad numbers are refused by name, a corrupt row is named", async () => {
      const store = await fresh();
      const key = "agent:main:x'); DROP TABLE sessions; --";
      await store.sessions.create({ key, agentId: "main", label: "$1 \\ '" });
      await store.sessions.append(
        key,
        [1, 2, 3].map((i) => ({ role: "user" as const, content: `m${i}`, timestamp: i })),
      );
      expect((await store.sessions.resolve({ label: "$1 \\ '", agentId: "main" }))?.key).toBe(key);
      expect((await store.sessions.history(key, { limit: 2.5 })).map((m) => m.content)).toEqual(["m2", "m3"]);
      expect((await store.sessions.list({ updatedSince: 1.5 })).map((e) => e.key)).toEqual([key]);
      await expect(store.cron.claimDue(Number.NaN, "A", 1_000, 5)).rejects.toThrow(
        "PostgreSQL store: nowMs must be a finite number (got NaN)",
      );
      await expect(store.lease.acquire("cron", "A", Number.POSITIVE_INFINITY)).rejects.toThrow(
        "PostgreSQL store: ttlMs must be a finite number (got Infinity)",
      );
      const other = await store.sessions.create({ key: "agent:main:other", agentId: "main" });
      await expect(
        store.sessions.create({ key: "agent:main:third", agentId: "main", sessionId: other.sessionId }),
      ).rejects.toThrow(`Session id ${other.sessionId} is already used by another session`);
      expect((await store.sessions.patch("agent:main:other", { agentId: undefined })).agentId).toBe("main");
      const schema = `conf_${schemas}`;
      await ctx.pool?.query(`UPDATE ${schema}.sessions SET entry = '{torn' WHERE key = $1`, [key]);
      await expect(store.sessions.get(key)).rejects.toThrow(
        `PostgreSQL store: session ${key} is not valid JSON`,
      );
      // a page names the torn entry too
      await expect(store.sessions.listPage({ limit: 5 })).rejects.toThrow(
        "PostgreSQL store: a session entry is not valid JSON",
      );
    });

    twoInstanceSuite(() => ctx.cluster?.url as string);
    livenessSuite(() => ctx.cluster?.url as string);
    remoteRunsSuite(() => ctx.cluster?.url as string);
    schedulerSuite(() => ctx.cluster?.url as string);
    connectionLivenessSuite(() => ctx.cluster?.url as string);
    followerSuite(() => ctx.cluster?.url as string);
    clusterCapSuite(() => ctx.cluster?.url as string);
    claimerSuite(() => ctx.cluster?.url as string);
    statementPlanSuite(() => ctx.cluster?.url as string);
    pageReadSuite(() => ctx.cluster?.url as string);
    queuedClaimSuite(() => ctx.cluster?.url as string);
    wakeTurnSuite(() => ctx.cluster?.url as string);
  },
);
