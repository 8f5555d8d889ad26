/**
 * State backends: the embedded files beside PostgreSQL on the same operations, side by side:
 * transcript append throughput, a history tail of a long transcript, `claimDue` with 4 claimers
 * (separate store instances, as 4 processes have them) over 1,000 due jobs, and spawn → announce
 * through the sessions section; then a 1,000-run soak of the sessions layer and its runner (heap
 * after a full GC, before and after). The PostgreSQL rows start a throwaway cluster (the store
 * tests' own `startCluster`) and are skipped, with the reason printed, when initdb is missing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { FileCronStore } from "@clawtools/automation";
import { type AnyAgentTool, createToolset } from "@clawtools/core";
import type { CronJob, CronStore, RunRegistry, SessionStore } from "@clawtools/core/contracts";
import { createSessionsPlugin, FileRunRegistry, FileSessionStore } from "@clawtools/sessions";
import { createScriptedRunner } from "@clawtools/sessions/testing";
// the bench package does not depend on the PostgreSQL store: its source (and its pg) load by path
import { openPostgresStore, type PostgresStore } from "../../../../backends/store-postgres/src/index.js";
import {
  type Cluster,
  HAVE_POSTGRES,
  SKIP_REASON,
  startCluster,
} from "../../../../backends/store-postgres/test/cluster.js";
import { type BenchRow, type BenchSuite, timeInTurns } from "../harness.js";
import { startLoopbackEcho } from "../loopback-echo.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

interface Backend {
  name: string;
  sessions: SessionStore;
  runs: RunRegistry;
  /** A new instance of the cron store on this backend (as another process opens it). */
  cron(): Promise<CronStore>;
}

const APPENDS = 1_000;
/** Appends each backend makes before the timed ones (same count on both). */
const APPENDS_WARM_UP = 300;
const HISTORY_MESSAGES = 10_000;
const DUE_JOBS = 1_000;
const SOAK_RUNS = 1_000;
const LISTED_SESSIONS = 1_000;
const PAGE = 50;
const CRON_OPS = 300;
/** The machine's floor for any operation that asks another process (see loopback-echo.ts). */
const LOOPBACK = "loopback";
const LOOPBACK_ROW =
  "bare loopback TCP round trip to another process (a Node child echoing 64 bytes): the floor";

const message = (i: number) => ({
  role: "user" as const,
  content: `message ${i}: ${"lorem ipsum dolor sit amet ".repeat(8)}`,
  timestamp: Date.now(),
});

function job(id: string, nextRunAtMs: number): CronJob {
  return {
    id,
    name: id,
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

/**
 * Milliseconds per append, `APPENDS` appends one after another to one session, after the same
 * number of warm-up appends on each backend (to another session, not timed): the row is the
 * steady cost, not the first calls' JIT and the client's first statements.
 */
async function appendRate(b: Backend): Promise<number> {
  await b.sessions.create({ key: "agent:main:append-warm-up", agentId: "main" });
  for (let i = 0; i < APPENDS_WARM_UP; i++)
    await b.sessions.append("agent:main:append-warm-up", [message(i)]);
  await b.sessions.create({ key: "agent:main:append", agentId: "main" });
  const start = performance.now();
  for (let i = 0; i < APPENDS; i++) await b.sessions.append("agent:main:append", [message(i)]);
  return (performance.now() - start) / APPENDS;
}

/** Fills a session with `HISTORY_MESSAGES` messages (in batches) for the history-tail rows. */
async function fillHistory(b: Backend): Promise<void> {
  await b.sessions.create({ key: "agent:main:long", agentId: "main" });
  for (let i = 0; i < HISTORY_MESSAGES; i += 500)
    await b.sessions.append(
      "agent:main:long",
      Array.from({ length: 500 }, (_, k) => message(i + k)),
    );
}

/** Fills the store with `LISTED_SESSIONS` sessions for the list-page rows. */
async function fillSessions(b: Backend): Promise<void> {
  for (let i = 0; i < LISTED_SESSIONS; i++)
    await b.sessions.create({ key: `agent:main:listed-${i}`, agentId: "main", label: `listed ${i}` });
}

/** One page of the session list, newest first, from a cursor in the middle (what sessions_list pages). */
async function pager(b: Backend): Promise<() => Promise<void>> {
  const store = b.sessions;
  if (!store.listPage) throw new Error(`${b.name}: no listPage`);
  const { next } = await store.listPage({ agentId: "main", limit: LISTED_SESSIONS / 2 });
  if (!next) throw new Error(`${b.name}: no second page`);
  return async () => {
    const page = await store.listPage?.({ agentId: "main", limit: PAGE, after: next });
    if (page?.entries.length !== PAGE) throw new Error(`${b.name}: page of ${page?.entries.length}`);
  };
}

/** ANALYZE of `table` through an admin connection (pg is the store's dependency: borrowed by path). */
async function analyze(url: string, table: string): Promise<void> {
  const pg = createRequire(new URL("../../../../backends/store-postgres/package.json", import.meta.url))(
    "pg",
  );
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`ANALYZE ${table}`);
  } finally {
    await admin.end();
  }
}

/** Milliseconds per `upsert` (cron add) and per `release` of a claimed job (a run's end), `CRON_OPS` each. */
async function cronOps(b: Backend): Promise<{ add: number; release: number }> {
  const store = await b.cron();
  let start = performance.now();
  for (let i = 0; i < CRON_OPS; i++)
    await store.upsert(job(`op${String(i).padStart(4, "0")}`, 2_000_000 + i));
  const add = (performance.now() - start) / CRON_OPS;
  const claimed = await store.claimDue(3_000_000, "ops", 600_000, CRON_OPS);
  if (claimed.length !== CRON_OPS) throw new Error(`${b.name}: claimed ${claimed.length}`);
  start = performance.now();
  for (const got of claimed)
    await store.release(got.id, "ops", {
      lastRunStatus: "ok",
      lastRunAtMs: 3_000_000,
      nextRunAtMs: 9_000_000,
    });
  const release = (performance.now() - start) / CRON_OPS;
  return { add, release };
}

/** 4 claimers on their own store instances take every due job; ms in all, and jobs claimed twice. */
async function claimRace(b: Backend): Promise<{ ms: number; duplicates: number; claimed: number }> {
  const seed = await b.cron();
  for (let i = 0; i < DUE_JOBS; i++)
    await seed.upsert(job(`j${String(i).padStart(4, "0")}`, 1_000 + (i % 50)));
  const claimers = await Promise.all(Array.from({ length: 4 }, () => b.cron()));
  const start = performance.now();
  const got = await Promise.all(
    claimers.map(async (store, n) => {
      const ids: string[] = [];
      for (;;) {
        const batch = await store.claimDue(10_000, `claimer-${n}`, 600_000, 10);
        if (batch.length === 0) return ids;
        ids.push(...batch.map((j) => j.id));
      }
    }),
  );
  const ms = performance.now() - start;
  const all = got.flat();
  return { ms, duplicates: all.length - new Set(all).size, claimed: new Set(all).size };
}

/** A sessions_spawn tool and its service over the backend's stores, with a runner that answers at once. */
function spawner(b: Backend, stateDir: string) {
  const plugin = createSessionsPlugin({
    store: b.sessions,
    runs: b.runs,
    maxChildrenPerAgent: 50,
    runner: ({ store }) => createScriptedRunner({ store, script: () => "done" }),
  });
  const context = { workspaceDir: stateDir, stateDir, agentId: "main", sessionKey: "main" };
  const set = createToolset({ plugins: [plugin], context, policy: { profile: "full" }, senderIsOwner: true });
  const spawn = set.tools.find((t) => t.name === "sessions_spawn") as AnyAgentTool;
  const service = plugin.serviceFor(context);
  const once = async () => {
    const announced = new Promise<void>((resolve) => service.events.once("announce", () => resolve()));
    const result = await spawn.execute("bench", { task: "bench task" });
    if (!(result.content[0] as { text: string }).text.includes('"accepted"'))
      throw new Error(`spawn refused: ${(result.content[0] as { text: string }).text}`);
    await announced;
  };
  return { once, service, dispose: () => set.dispose() };
}

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

export default {
  name: "state-backends",
  async run() {
    const rows: BenchRow[] = [];
    const notes: string[] = [];
    const dirs: string[] = [];
    const fresh = () => {
      const dir = mkdtempSync(path.join(tmpdir(), "clawtools-bench-state-"));
      dirs.push(dir);
      return dir;
    };
    const backends: Backend[] = [];
    const fileDir = fresh();
    const cronDir = fresh();
    backends.push({
      name: "embedded files",
      sessions: new FileSessionStore(fileDir),
      runs: new FileRunRegistry(fileDir),
      cron: async () => new FileCronStore(cronDir),
    });
    let cluster: Cluster | undefined;
    const pgStores: PostgresStore[] = [];
    try {
      if (HAVE_POSTGRES) {
        cluster = await startCluster();
        const url = cluster.url;
        const open = async () => {
          const store = await openPostgresStore({
            connectionString: url,
            schema: "bench",
            maxConnections: 4,
          });
          pgStores.push(store);
          return store;
        };
        const main = await open();
        backends.push({
          name: "PostgreSQL",
          sessions: main.sessions,
          runs: main.runs,
          cron: async () => (await open()).cron,
        });
      } else {
        console.warn(`bench state-backends: PostgreSQL rows skipped: ${SKIP_REASON}`);
        notes.push(`PostgreSQL rows skipped: ${SKIP_REASON}.`);
      }
      const [embedded] = backends as [Backend];
      const label = (b: Backend, what: string) => `${what} (${b.name})`;

      for (const b of backends)
        rows.push({
          name: label(b, `append, ${APPENDS} messages one after another`),
          value: await appendRate(b),
          unit: "ms/append",
          ...(b === embedded
            ? {}
            : { baseline: label(embedded, `append, ${APPENDS} messages one after another`), target: "≤ 3×" }),
        });

      for (const b of backends) await fillHistory(b);
      const tails = await timeInTurns(
        Object.fromEntries(
          backends.map((b) => [b.name, () => b.sessions.history("agent:main:long", { limit: 20 })]),
        ),
        40,
      );
      for (const b of backends)
        rows.push({
          name: label(b, `history tail (last 20 of ${HISTORY_MESSAGES.toLocaleString("en")})`),
          value: tails[b.name]!,
          unit: "ms",
          ...(b === embedded
            ? {}
            : {
                baseline: label(
                  embedded,
                  `history tail (last 20 of ${HISTORY_MESSAGES.toLocaleString("en")})`,
                ),
              }),
        });

      for (const b of backends) await fillSessions(b);
      // the planner statistics autovacuum keeps, taken at once rather than at its next pass
      // (within a minute): the embedded store likewise orders its index once per file version
      if (cluster) await analyze(cluster.url, "bench.sessions");
      // the floor of any PostgreSQL operation here: one indexed point read, one round trip; and
      // the machine's own floor beneath it: a bare round trip to another process, in the same turns
      const echo = await startLoopbackEcho();
      const floor: Record<string, number> = await timeInTurns<string>(
        {
          ...Object.fromEntries(backends.map((b) => [b.name, () => b.sessions.get("agent:main:missing")])),
          [LOOPBACK]: () => echo.roundTrip(),
        },
        40,
      ).finally(() => echo.stop());
      const floorRow = "session get of an unknown key (one point read)";
      for (const b of backends)
        rows.push({
          name: label(b, floorRow),
          value: floor[b.name]!,
          unit: "ms",
          ...(b === embedded ? {} : { baseline: label(embedded, floorRow) }),
        });
      // against the embedded append: a PostgreSQL append is a write that must reach the server
      rows.push({
        name: LOOPBACK_ROW,
        value: floor[LOOPBACK]!,
        unit: "ms",
        baseline: label(embedded, `append, ${APPENDS} messages one after another`),
      });
      const pagers = await Promise.all(backends.map(pager));
      const pages = await timeInTurns(Object.fromEntries(backends.map((b, i) => [b.name, pagers[i]!])), 40);
      const pageRow = `session list page (${PAGE} after a cursor, ${LISTED_SESSIONS.toLocaleString("en")} sessions)`;
      for (const b of backends)
        rows.push({
          name: label(b, pageRow),
          value: pages[b.name]!,
          unit: "ms",
          ...(b === embedded ? {} : { baseline: label(embedded, pageRow), target: "≤ 3×" }),
        });

      const ops = new Map<Backend, { add: number; release: number }>();
      for (const b of backends) ops.set(b, await cronOps(b));
      for (const what of ["add", "release"] as const) {
        const name =
          what === "add"
            ? `cron add (upsert), ${CRON_OPS} jobs`
            : `cron release of a claimed job, ${CRON_OPS} jobs`;
        for (const b of backends)
          rows.push({
            name: label(b, name),
            value: ops.get(b)![what],
            unit: "ms/op",
            ...(b === embedded
              ? {}
              : { baseline: label(embedded, name), ...(what === "release" ? { target: "≤ 3×" } : {}) }),
          });
      }

      for (const b of backends) {
        const race = await claimRace(b);
        rows.push({
          name: label(b, `claimDue, 4 claimers, ${DUE_JOBS.toLocaleString("en")} due jobs`),
          value: race.ms,
          unit: "ms",
          target: "each job claimed once",
          met: race.duplicates === 0 && race.claimed === DUE_JOBS,
          note: `${race.claimed} claimed, ${race.duplicates} twice`,
          ...(b === embedded
            ? {}
            : {
                baseline: label(embedded, `claimDue, 4 claimers, ${DUE_JOBS.toLocaleString("en")} due jobs`),
              }),
        });
      }

      const spawners = backends.map((b) => spawner(b, fresh()));
      try {
        for (const s of spawners) await s.service.ensure("agent:main:main");
        const times = await timeInTurns(
          Object.fromEntries(backends.map((b, i) => [b.name, spawners[i]!.once])),
          30,
          3,
        );
        for (const b of backends)
          rows.push({
            name: label(b, "sessions_spawn → run → announce"),
            value: times[b.name]!,
            unit: "ms",
            ...(b === embedded ? {} : { baseline: label(embedded, "sessions_spawn → run → announce") }),
          });
      } finally {
        for (const s of spawners) await s.dispose();
      }

      // the soak, first the runner alone (start → wait on one session): it keeps nothing per ended
      // run beyond its bounded table of recent outcomes, so after that table is full the heap is flat
      {
        const soakDir = fresh();
        const store = new FileSessionStore(soakDir);
        await store.create({ key: "agent:main:soak", agentId: "main" });
        const runner = createScriptedRunner({ store, script: () => "done" });
        const one = async () => {
          const { runId } = await runner.start({ sessionKey: "agent:main:soak", message: "soak" });
          await runner.wait(runId, 60_000);
        };
        for (let i = 0; i < 300; i++) await one(); // the table of 256 recent outcomes fills
        const before = heapMb();
        const samples: number[] = [];
        for (let i = 0; i < SOAK_RUNS; i++) {
          await one();
          if ((i + 1) % 250 === 0) samples.push(heapMb());
        }
        const after = heapMb();
        rows.push({ name: "runner alone: heap after 300 warm-up runs (full GC)", value: before, unit: "MB" });
        rows.push({
          name: `runner alone: heap after ${SOAK_RUNS.toLocaleString("en")} more runs (full GC)`,
          value: after,
          unit: "MB",
          baseline: "runner alone: heap after 300 warm-up runs (full GC)",
          target: "≤ 1.05×",
          met: after / before <= 1.05,
          note: `every 250 runs: ${samples.map((v) => v.toFixed(2)).join(", ")} MB; ${(((after - before) * 1024) / SOAK_RUNS).toFixed(2)} KB a run`,
        });
      }
      // then the whole sessions layer (spawn → announce): the embedded store keeps every run and
      // child session (runs.json, sessions.json, parsed and cached), so its share grows with the store
      {
        const soakDir = fresh();
        const soak = spawner(
          {
            name: "soak",
            sessions: new FileSessionStore(soakDir),
            runs: new FileRunRegistry(soakDir),
            cron: async () => {
              throw new Error("unused");
            },
          },
          soakDir,
        );
        try {
          await soak.service.ensure("agent:main:main");
          for (let i = 0; i < 100; i++) await soak.once();
          const before = heapMb();
          const samples: number[] = [];
          for (let i = 0; i < SOAK_RUNS; i++) {
            await soak.once();
            if ((i + 1) % 250 === 0) samples.push(heapMb());
          }
          const after = heapMb();
          const stored = Buffer.byteLength(
            JSON.stringify(await soak.service.runs.list()) + JSON.stringify(await soak.service.store.list()),
          );
          rows.push({
            name: "sessions layer: heap after 100 warm-up runs (full GC)",
            value: before,
            unit: "MB",
          });
          rows.push({
            name: `sessions layer: heap after ${SOAK_RUNS.toLocaleString("en")} more spawn → announce runs (full GC)`,
            value: after,
            unit: "MB",
            baseline: "sessions layer: heap after 100 warm-up runs (full GC)",
            note: `every 250 runs: ${samples.map((v) => v.toFixed(1)).join(", ")} MB; ${(((after - before) * 1024) / SOAK_RUNS).toFixed(1)} KB a run, beside ${(stored / 1024 / (SOAK_RUNS + 101)).toFixed(1)} KB of stored run and session JSON a run that the file store keeps parsed`,
          });
        } finally {
          await soak.dispose();
        }
      }
      notes.push(
        `Per operation, PostgreSQL pays at least one loopback round trip (the point-read row: its floor on this machine in this run, two context switches between this process and a server process), where the embedded store answers a page from memory after one stat of its index file and appends with one synchronous write call, in this process. Like with like: neither side flushes to disk in these rows. The embedded append is a plain append (no fsync) and its cron release a journal line (no fsync); the PostgreSQL cluster is the store tests' throwaway one (fsync off), and its append and release commit without waiting for the WAL flush (synchronous_commit off for those statements: what a server crash may lose is what the embedded stores may lose to a machine crash). Append and release are one prepared statement each (a one-message append without an idempotency key, as here: one INSERT … SELECT under the session's row lock that returns no row, its row count saying whether the session was there; with a key or several messages, the row lock, key and messages together; the release with its fencing check, a lookup of its own epoch's lock, and its notice). The session list page is a keyset page (${PAGE} rows after a cursor from the middle of ${LISTED_SESSIONS.toLocaleString("en")}) read in index order (newest first, ties by key) with no sort, offset or count of the table, one prepared statement per combination of filters, after an ANALYZE of the sessions table (the statistics autovacuum keeps, taken at once rather than at its next pass; without them the planner sorts the agent's sessions, about 0.4 ms more here); timed in 40 turns in rotation. Both sides answer a page read again from entries they parsed before, each checked against the store's current state on every call: the embedded store stats its index file and copies the page's entries from its parsed index while the file is unchanged; the PostgreSQL store sends the page's text as it last received it, the server reads the page's rows and answers "same" when they are that text byte for byte (nothing is sent back or parsed; the client copies the entries it parsed from that text), else sends the page, whose entries are parsed unless their text was parsed before. No entry changes during the row, so every timed page is such a read on both sides; a page whose entries changed costs PostgreSQL one JSON.parse per changed entry more, and the embedded store a parse of its whole index file. Before this, the page was 27× (it read and sorted the agent's sessions up to the cursor), measured 2026-12-06 at load 40. Cron add and release are ${CRON_OPS} one after another on one store instance.`,
      );
      notes.push(
        `Each PostgreSQL instance is a store bundle with its own pool of 4 connections on one throwaway cluster on this machine (loopback, fsync off as in the store tests); the embedded rows use the files in a temp directory. The 4 claimers are 4 store instances on one backend (4 FileCronStores on one directory, 4 pools on one schema), as 4 processes would hold them. Appends are one message each, one after another (no group commit across calls), timed after ${APPENDS_WARM_UP} untimed appends to another session on each backend alike (until 2026-12-07 the timed appends were each backend's first operations, so the row carried the PostgreSQL client's first-statement and JIT warm-up). The history tail is the median of 40 turns taken in rotation. Spawn → announce runs sessions_spawn through a toolset with a scripted runner that answers at once, 30 turns in rotation. The soak weighs the heap after a full GC: first the scripted runner alone (start → wait, ${SOAK_RUNS.toLocaleString("en")} runs after 300 warm-up runs; it keeps the newest 256 outcomes and turns), then the whole sessions layer (spawn → announce on the embedded files, ${SOAK_RUNS.toLocaleString("en")} runs after 100), whose growth tracks the store's own data: the file store keeps runs.json and sessions.json in memory, as text and parsed, one run record and one session entry a run (about 0.8 KB of JSON, so about 2.5 KB of heap, is what the row shows; not separated from the rest here). Load average at the end: ${loadavg()[0]!.toFixed(1)} (the machine is shared: absolute times are noisy, ratios less so).`,
      );
      // the per-operation goal: PostgreSQL within 3× the embedded store, in the same run
      for (const row of rows)
        if (row.target === "≤ 3×" && row.baseline) {
          const base = rows.find((r) => r.name === row.baseline);
          if (base) row.met = row.value / base.value <= 3;
        }
      return {
        title: "State backends: embedded files and PostgreSQL side by side; a 1,000-run soak",
        rows,
        notes,
      };
    } finally {
      for (const store of pgStores) await store.close().catch(() => {});
      await cluster?.stop().catch(() => {});
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
