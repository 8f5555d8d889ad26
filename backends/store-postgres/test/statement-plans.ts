import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunRecord } from "@clawtools/core/contracts";
import { createSessionsPlugin } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
import { sampleCronJob as job } from "@clawtools/testing";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { openPostgresStore, type PostgresStore } from "../src/index.js";
import { cutOff } from "./cut-off.js";

const MAIN = "agent:main:main";

/** A sub-agent run of `MAIN`, held by a serve on another host while running. */
const run = (runId: string, status: RunRecord["status"]): RunRecord => ({
  runId,
  childSessionKey: `agent:main:subagent:${runId}`,
  requesterSessionKey: MAIN,
  task: runId,
  cleanup: "keep",
  depth: 1,
  createdAt: Date.now(),
  status,
  announce: { status: "delivered", attempts: 1, idempotencyKey: `announce:${runId}` },
  owner: { pid: 4242, instance: runId, host: "elsewhere.example" },
  heartbeatAt: Date.now(),
});

interface Sent {
  name?: string;
  text: string;
  values: unknown[];
}

interface PlanNode {
  "Node Type": string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Index Name"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** Every statement the store sends through its pool, as sent (name, text, values). */
function record(store: PostgresStore): Sent[] {
  const sent: Sent[] = [];
  const pool = (store.sessions as unknown as { db: { pool: pg.Pool } }).db.pool;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [first, second] = args as [string | Sent, unknown[] | undefined];
    sent.push(typeof first === "string" ? { text: first, values: second ?? [] } : { ...first });
    return query(...args);
  };
  return sent;
}

/** The executed plan of a statement as the store sent it. */
async function explain(admin: pg.Client, statement: Sent): Promise<PlanNode> {
  const { rows } = await admin.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
  return (rows[0]["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan;
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
/** Rows the plan's scans of `table` visited (returned plus filtered out). */
const visited = (plan: PlanNode, table: string) =>
  nodes(plan)
    .filter((n) => /Scan/.test(n["Node Type"]) && n["Relation Name"] === table)
    .reduce((sum, n) => sum + (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)) * n["Actual Loops"], 0);

/** What the per-operation statements cost the database: a list page reads its page, not the table. */
export function statementPlanSuite(url: () => string): void {
  describe("statement plans", () => {
    it("a session list page after a cursor reads about a page of rows in index order: no sort, no offset, no count", async () => {
      const store = await openPostgresStore({ connectionString: url(), schema: "plans", maxConnections: 2 });
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        for (let i = 0; i < 1_000; i++)
          await store.sessions.create({
            key: `agent:${i % 4 === 0 ? "ops" : "main"}:s${i}`,
            agentId: i % 4 === 0 ? "ops" : "main",
          });
        // the statistics autovacuum keeps, taken now
        await admin.query("ANALYZE plans.sessions");
        const sent = record(store);
        for (const agentId of ["main", undefined]) {
          const first = await store.sessions.listPage({ ...(agentId ? { agentId } : {}), limit: 300 });
          sent.length = 0;
          const page = await store.sessions.listPage({
            ...(agentId ? { agentId } : {}),
            limit: 50,
            after: first.next!,
          });
          expect(page.entries).toHaveLength(50);
          expect(sent).toHaveLength(1);
          const statement = sent[0]!;
          expect(statement.text).not.toMatch(/OFFSET|OVER\s*\(/i);
          const plan = await explain(admin, statement);
          expect(nodes(plan).map((n) => n["Node Type"])).not.toContain("Sort");
          // the one aggregate (the page's rows joined, and their count) sits above the LIMIT: it
          // counts the page, never the table
          const aggregates = nodes(plan).filter((n) => n["Node Type"] === "Aggregate");
          expect(aggregates).toHaveLength(1);
          expect(nodes(aggregates[0]!).map((n) => n["Node Type"])).toContain("Limit");
          // 51 rows (one more says a next page follows) and the other agent's rows passed over on
          // the way if the planner walks the overall index; never the 300 before the cursor
          expect(visited(plan, "sessions")).toBeLessThanOrEqual(100);
        }
      } finally {
        await admin.end();
        await store.close();
      }
    });

    it("a reap set off by an orphaned run reads that holder's running runs alone (an index by epoch), never every run", async () => {
      const schema = "orphan_reads";
      const open = () => openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      const [a, b, c] = [await open(), await open(), await open()];
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      const dir = mkdtempSync(path.join(tmpdir(), "pg-orphans-"));
      let service: { close(): void } | undefined;
      try {
        await a.sessions.create({ key: MAIN, agentId: "main" });
        // 1,000 ended runs, one running run of a live holder (a), two of b, two of c
        for (let i = 0; i < 1_000; i++) await a.runs.record(run(`done-${i}`, "done"));
        await a.runs.record(run("live", "running"));
        for (const id of ["b-1", "b-2"]) await b.runs.record(run(id, "running"));
        for (const id of ["c-1", "c-2"]) await c.runs.record(run(id, "running"));
        await admin.query(`ANALYZE ${schema}.runs`);
        await cutOff(url(), c);
        // the cut-off backend ends (and its lock goes) just after pg_terminate_backend answers
        await expect.poll(async () => (await a.runs.liveness()).orphaned, { timeout: 10_000 }).toBe(2);
        const sent = record(a);
        expect((await a.runs.listOrphaned()).map((r) => r.runId).sort()).toEqual(["c-1", "c-2"]);
        const plan = await explain(admin, sent[0]!);
        // the running runs' index entries (five) and the two orphans' rows, none of the ended runs
        expect(visited(plan, "runs")).toBeLessThanOrEqual(12);

        // a serve's sessions section on a: its start pass reads the unsettled runs once (c's end
        // lost then), never every run
        const reads = { list: 0, unsettled: 0, orphaned: 0 };
        const runs = Object.create(a.runs) as typeof a.runs;
        runs.list = async () => {
          reads.list++;
          return a.runs.list();
        };
        runs.listUnsettled = async () => {
          reads.unsettled++;
          return a.runs.listUnsettled();
        };
        runs.listOrphaned = async () => {
          reads.orphaned++;
          return a.runs.listOrphaned();
        };
        const sessions = createSessionsPlugin({
          store: a.sessions,
          runs,
          runner: ({ store }) => createScriptedRunner({ store, script: () => "unused" }),
          liveness: { heartbeatMs: 600_000, lostCheckMs: 50 },
        }).serviceFor({ stateDir: dir, workspaceDir: dir });
        service = sessions;
        await sessions.reapLost();
        await vi.waitFor(async () => expect((await a.runs.get("c-1"))?.status).toBe("lost"));
        expect(reads.list).toBe(0);
        const wholeReads = reads.unsettled;
        // then b's connection drops: the background check ends its runs reading them alone
        await cutOff(url(), b);
        await vi.waitFor(async () => {
          expect((await a.runs.get("b-1"))?.status).toBe("lost");
          expect((await a.runs.get("b-2"))?.status).toBe("lost");
        });
        expect(reads.orphaned).toBeGreaterThan(0);
        expect(reads.unsettled).toBe(wholeReads);
        expect(reads.list).toBe(0);
        expect((await a.runs.get("live"))?.status).toBe("running");
      } finally {
        service?.close();
        await admin.end();
        await Promise.all([a.close(), b.close(), c.close()]);
      }
    });

    it("a whole liveness pass reads the runs in flight (running, or their announce pending), not the history; the column is filled in for runs recorded before it", async () => {
      const schema = "unsettled_reads";
      const open = () => openPostgresStore({ connectionString: url(), schema, maxConnections: 2 });
      let store = await open();
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      const pending = (runId: string): RunRecord => ({
        ...run(runId, "done"),
        announce: { status: "pending", attempts: 0, idempotencyKey: `announce:${runId}` },
      });
      try {
        await store.sessions.create({ key: MAIN, agentId: "main" });
        for (let i = 0; i < 1_000; i++) await store.runs.record(run(`done-${i}`, "done"));
        await store.runs.record({
          ...run("gave-up", "failed"),
          announce: { ...run("x", "done").announce, status: "failed" },
        });
        await store.runs.record(run("live", "running"));
        await store.runs.record(pending("unannounced"));
        await admin.query(`ANALYZE ${schema}.runs`);
        const sent = record(store);
        expect((await store.runs.listUnsettled()).map((r) => r.runId)).toEqual(["live", "unannounced"]);
        const plan = await explain(admin, sent[0]!);
        // the two unsettled runs through their partial index: none of the 1,001 settled ones
        expect(visited(plan, "runs")).toBeLessThanOrEqual(2);
        // an update settles or unsettles the run
        await store.runs.update("unannounced", {
          announce: { ...pending("x").announce, status: "delivered" },
        });
        await store.runs.update("live", { status: "done", announce: pending("live").announce });
        expect((await store.runs.listUnsettled()).map((r) => r.runId)).toEqual(["live"]);

        // a database from before the column: the step fills it in from each run's record
        await store.runs.record(run("running-before", "running"));
        await store.close();
        await admin.query(`ALTER TABLE ${schema}.runs DROP COLUMN unsettled`);
        await admin.query(`DELETE FROM ${schema}.migrations WHERE version = 7`);
        store = await open();
        expect((await store.runs.listUnsettled()).map((r) => r.runId)).toEqual(["live", "running-before"]);
      } finally {
        await admin.end();
        await store.close();
      }
    });

    it("a run's end is one statement: the log line and the release together; an edit made during the run is kept; a cut-off holder records nothing", async () => {
      const open = () => openPostgresStore({ connectionString: url(), schema: "finish", maxConnections: 2 });
      const [a, b] = [await open(), await open()];
      const entry = (jobId: string) => ({
        ts: 2_100,
        jobId,
        runId: `run-${jobId}`,
        action: "finished" as const,
        status: "ok" as const,
        runAtMs: 2_000,
      });
      const state = { lastRunStatus: "ok" as const, lastRunAtMs: 2_000, nextRunAtMs: 90_000 };
      try {
        for (const id of ["plain", "edited", "fenced"]) await a.cron.upsert(job(id, 1_000));
        const sent = record(a);
        expect((await a.cron.claimDue(2_000, "A", 600_000, 2)).map((j) => j.id).sort()).toEqual([
          "edited",
          "fenced",
        ]);
        expect(await a.cron.claimDue(2_000, "A", 600_000, 1)).toHaveLength(1);
        sent.length = 0;
        expect(await a.cron.finishRun(entry("plain"), "A", state)).toBe(true);
        expect(sent).toHaveLength(1);
        expect((await a.cron.get("plain"))?.state).toEqual({ ...job("plain", 1_000).state, ...state });
        expect((await a.cron.readRuns("plain")).entries).toEqual([entry("plain")]);
        // edited while it ran: the edit stays, the run's state is merged into it
        await b.cron.upsert({ ...job("edited", 1_000), name: "renamed", state: { runningAtMs: 2_000 } });
        expect(await a.cron.finishRun(entry("edited"), "A", state)).toBe(true);
        expect(await a.cron.get("edited")).toMatchObject({ name: "renamed", state });
        expect((await a.cron.get("edited"))?.state.runningAtMs).toBeUndefined();
        expect((await a.cron.readRuns("edited")).entries).toHaveLength(1);
        // cut off: the line and the release are refused, the claim is left for the leader's recovery
        const old = await cutOff(url(), a);
        await vi.waitFor(() => expect(a.member.epoch).toBeGreaterThan(old), { timeout: 10_000 });
        await expect(a.cron.finishRun(entry("fenced"), "A", state)).rejects.toThrow(
          "PostgreSQL store: the run of cron job fenced was not recorded: this process no longer holds its claim (its connection to the database dropped)",
        );
        expect((await b.cron.readRuns("fenced")).entries).toEqual([]);
        expect((await b.cron.orphans(3_000)).map((j) => j.id)).toEqual(["fenced"]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it("a claim brings back the next due time of what it left, in the same statement", async () => {
      const store = await openPostgresStore({
        connectionString: url(),
        schema: "claim_next",
        maxConnections: 2,
      });
      try {
        for (const [id, at] of [
          ["a", 1_000],
          ["b", 1_000],
          ["c", 5_000],
        ] as const)
          await store.cron.upsert(job(id, at));
        const sent = record(store);
        const first = await store.cron.claimDueWithNext(2_000, "A", 600_000, 1);
        expect(sent).toHaveLength(1);
        expect(first.jobs.map((j) => j.id)).toEqual(["a"]);
        // b is still due: the timer is to fire at once
        expect(first.nextWakeAtMs).toBe(1_000);
        const second = await store.cron.claimDueWithNext(2_000, "A", 600_000, 5);
        expect(second).toMatchObject({ jobs: [{ id: "b" }], nextWakeAtMs: 5_000 });
        expect(await store.cron.nextWakeAtMs(2_000)).toBe(5_000);
        expect(await store.cron.claimDueWithNext(9_000, "A", 600_000, 5)).toMatchObject({
          jobs: [{ id: "c" }],
          nextWakeAtMs: undefined,
        });
      } finally {
        await store.close();
      }
    });
  });
}
