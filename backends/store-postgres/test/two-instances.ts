import type { CronJob } from "@clawtools/automation";
import type { RunRecord } from "@clawtools/sessions";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";

let schemas = 0;

function job(id: string, nextRunAtMs: number): CronJob {
  return {
    id,
    name: `job ${id}`,
    enabled: true,
    createdAtMs: 1,
    updatedAtMs: 1,
    schedule: { kind: "every", everyMs: 60_000 },
    sessionTarget: "main",
    wakeMode: "now",
    payload: { kind: "systemEvent", text: id },
    state: { nextRunAtMs },
  };
}

function run(runId: string): RunRecord {
  return {
    runId,
    childSessionKey: `agent:main:subagent:${runId}`,
    requesterSessionKey: "agent:main:main",
    task: "t",
    cleanup: "keep",
    depth: 1,
    createdAt: 1,
    status: "running",
    announce: { status: "pending", attempts: 0, idempotencyKey: `announce:${runId}` },
  };
}

/** Steps with two store bundles on one schema, each with its own pool (as two processes have). */
export function twoInstanceSuite(url: () => string): void {
  describe("two instances on one database", () => {
    const open: PostgresStore[] = [];
    const pair = async (): Promise<[PostgresStore, PostgresStore]> => {
      const schema = `two_${++schemas}`;
      const a = await openPostgresStore({ connectionString: url(), schema, maxConnections: 5 });
      const b = await openPostgresStore({ connectionString: url(), schema, maxConnections: 5 });
      open.push(a, b);
      return [a, b];
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
    });

    it("sessions: concurrent patches of different fields and appends from both lose nothing", async () => {
      const [a, b] = await pair();
      await a.sessions.create({ key: "agent:main:main", agentId: "main" });
      for (let i = 0; i < 10; i++) await a.sessions.create({ key: `agent:main:s${i}`, agentId: "main" });
      // each process patches its own field of every session and appends its own messages in order
      const writer = async (store: PostgresStore, who: string, patch: (i: number) => object) => {
        for (let i = 0; i < 10; i++) {
          await store.sessions.patch(`agent:main:s${i}`, patch(i));
          await store.sessions.append("agent:main:main", [
            { role: "user", content: `${who}${i}`, timestamp: i },
          ]);
        }
      };
      await Promise.all([
        writer(a, "a", (i) => ({ model: `openai/m${i}` })),
        writer(b, "b", (i) => ({ label: `l${i}` })),
      ]);
      for (let i = 0; i < 10; i++)
        expect(await b.sessions.get(`agent:main:s${i}`)).toMatchObject({
          model: `openai/m${i}`,
          label: `l${i}`,
        });
      const history = (await a.sessions.history("agent:main:main")).map((m) => m.content as string);
      expect(history).toHaveLength(20);
      // each writer's messages keep their order
      for (const who of ["a", "b"])
        expect(history.filter((c) => c.startsWith(who))).toEqual(
          Array.from({ length: 10 }, (_, i) => `${who}${i}`),
        );
      // a retried delivery through the other process is still one message
      const both = await Promise.all([
        a.sessions.append("agent:main:main", [{ role: "user", content: "once", timestamp: 1 }], {
          idempotencyKey: "k",
        }),
        b.sessions.append("agent:main:main", [{ role: "user", content: "once", timestamp: 1 }], {
          idempotencyKey: "k",
        }),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
      expect((await b.sessions.history("agent:main:main", { limit: 2 })).map((m) => m.content)).toEqual([
        history.at(-1),
        "once",
      ]);
    });

    it("runs: owner, heartbeat and announce written by two processes all stay; a wait in one sees the end made in the other", async () => {
      const [a, b] = await pair();
      await a.runs.record(run("r1"));
      const owner = { pid: 4242, instance: "i-a", host: "host-a" };
      await Promise.all([
        a.runs.update("r1", { owner, heartbeatAt: 10 }),
        b.runs.update("r1", {
          announce: { status: "delivered", attempts: 1, idempotencyKey: "announce:r1" },
        }),
      ]);
      expect(await b.runs.get("r1")).toMatchObject({
        owner,
        heartbeatAt: 10,
        announce: { status: "delivered" },
      });
      expect((await a.runs.listRunning()).map((r) => r.runId)).toEqual(["r1"]);

      const waiting = b.runs.waitForEnd("r1", 60_000);
      // b subscribes before it reads, so an end written before or after LISTEN is active is seen
      await a.runs.update("r1", {
        status: "lost",
        endedAt: 12,
        outcome: { error: "its owner process 4242 is gone" },
      });
      expect(await waiting).toMatchObject({
        runId: "r1",
        status: "lost",
        outcome: { error: "its owner process 4242 is gone" },
      });
      expect(await a.runs.listRunning()).toEqual([]);
      // a wait that times out answers the run as it stands
      await a.runs.record(run("r2"));
      expect((await b.runs.waitForEnd("r2", 50))?.status).toBe("running");
      expect(await b.runs.waitForEnd("nope", 60_000)).toBeUndefined();
    });

    it("runs: a wait survives its listening connection being killed (it listens again and re-reads)", async () => {
      const [a, b] = await pair();
      await a.runs.record(run("r1"));
      const waiting = b.runs.waitForEnd("r1", 120_000);
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        const listeners = async () =>
          (
            await admin.query<{ pid: number }>(
              "SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN clawtools_store' AND pid <> pg_backend_pid()",
            )
          ).rows.map((row) => row.pid);
        let pids = await listeners();
        while (pids.length === 0) pids = await listeners();
        await admin.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [pids]);
        await a.runs.update("r1", { status: "done", endedAt: 5 });
        expect(await waiting).toMatchObject({ runId: "r1", status: "done" });
      } finally {
        await admin.end();
      }
    });

    it("cron: 2 concurrent claimers on 2 processes claim each of 300 due jobs exactly once", async () => {
      const [a, b] = await pair();
      await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          a.cron.upsert(job(`j${String(i).padStart(3, "0")}`, 1_000 + (i % 17))),
        ),
      );
      const claimer = async (store: PostgresStore, owner: string) => {
        const got: string[] = [];
        for (;;) {
          const batch = await store.cron.claimDue(5_000, owner, 60_000, 5);
          if (batch.length === 0) return got;
          got.push(...batch.map((j) => j.id));
        }
      };
      const [fromA, fromB] = await Promise.all([claimer(a, "A"), claimer(b, "B")]);
      const all = [...fromA, ...fromB];
      expect(all).toHaveLength(300);
      expect(new Set(all).size).toBe(300);
      expect(await b.cron.nextWakeAtMs(5_000)).toBeUndefined();
    });

    it("cron: a lease that expires lets the other process take the job over; the old owner cannot release it", async () => {
      const [a, b] = await pair();
      await a.cron.upsert(job("x", 1_000));
      expect((await a.cron.claimDue(1_000, "A", 5_000, 10)).map((j) => j.id)).toEqual(["x"]);
      expect(await b.cron.claimDue(5_999, "B", 5_000, 10)).toEqual([]);
      expect(await b.cron.claim("x", 5_999, "B", 5_000)).toBeUndefined();
      const taken = await b.cron.claimDue(6_000, "B", 5_000, 10);
      expect(taken.map((j) => [j.id, j.state.runningAtMs])).toEqual([["x", 6_000]]);
      expect(await a.cron.release("x", "A", { lastRunStatus: "ok" })).toBe(false);
      expect(await b.cron.release("x", "B", { lastRunStatus: "ok", nextRunAtMs: 66_000 })).toBe(true);
      expect((await a.cron.get("x"))?.state).toEqual({ nextRunAtMs: 66_000, lastRunStatus: "ok" });
    });

    it("cron: a job added by one process is announced to the other at once (LISTEN/NOTIFY)", async () => {
      const [a, b] = await pair();
      const seen: string[] = [];
      let heard: () => void = () => {};
      const got = new Promise<void>((resolve) => {
        heard = resolve;
      });
      const off = await b.cron.onChange((id) => {
        seen.push(id);
        heard();
      });
      await a.cron.upsert(job("new", 9_000));
      await got;
      expect(seen).toEqual(["new"]);
      off();
    });

    it("leader lease: one holder at a time; after its ttl runs out the other takes over and the old holder cannot renew", async () => {
      const [a, b] = await pair();
      expect(await a.lease.acquire("cron", "A", 60_000)).toBe(true);
      expect(await b.lease.acquire("cron", "B", 60_000)).toBe(false);
      expect(await a.lease.acquire("cron", "A", 60_000)).toBe(true);
      expect(await b.lease.renew("cron", "B", 60_000)).toBe(false);
      // A stops renewing: its lease now ends 1 ms from now (the database's clock)
      expect(await a.lease.renew("cron", "A", 1)).toBe(true);
      while (!(await b.lease.acquire("cron", "B", 60_000))) await new Promise((r) => setTimeout(r, 5));
      expect(await a.lease.renew("cron", "A", 60_000)).toBe(false);
      expect(await a.lease.acquire("cron", "A", 60_000)).toBe(false);
      await a.lease.release("cron", "A"); // not the holder: nothing happens
      expect(await a.lease.acquire("cron", "A", 60_000)).toBe(false);
      await b.lease.release("cron", "B");
      expect(await a.lease.acquire("cron", "A", 60_000)).toBe(true);
    });
  });
}
