/**
 * A cluster of cron schedulers on one PostgreSQL: 3 schedulers (each its own store instance, as
 * 3 processes hold them), one-shot jobs due over about 15 s, and the leader cut off twice (its
 * liveness connection's backend terminated, as PostgreSQL sees a killed process, then its
 * scheduler stopped) and replaced by a fresh one. Reports how long firing stopped after each cut
 * beside the leader lease a takeover used to wait out, the lateness of every fire, and whether
 * each job fired exactly once. Skipped, with the reason, without PostgreSQL server binaries.
 * `--scale` then runs the scale run of real serve processes (cluster-scale.ts) on a cluster of its
 * own, written to results/cluster-scale.md (a run without it leaves that file as it is).
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { CronExecutor, CronService, systemClock } from "@clawtools/automation";
import { delay } from "@clawtools/core/time";
// the bench package does not depend on the PostgreSQL store: its source (and its pg) load by path
import { openPostgresStore, type PostgresStore } from "../../../../backends/store-postgres/src/index.js";
import {
  type Cluster,
  HAVE_POSTGRES,
  SKIP_REASON,
  startCluster,
} from "../../../../backends/store-postgres/test/cluster.js";
import { runScale } from "../cluster-scale.js";
import {
  type BenchRow,
  type BenchSuite,
  type BenchSuiteResult,
  loadAtStart,
  percentile,
  renderSuite,
} from "../harness.js";

// pg is the store's dependency: the admin connection borrows the store's copy
const pg = createRequire(new URL("../../../../backends/store-postgres/package.json", import.meta.url))(
  "pg",
) as {
  Client: new (config: {
    connectionString: string;
  }) => {
    connect(): Promise<unknown>;
    query(sql: string, params?: unknown[]): Promise<unknown>;
    end(): Promise<void>;
  };
};

const JOBS = 150;
const SPREAD_MS = 15_000;
const LEADER_LEASE_MS = 30_000;
const MAIN = "agent:main:main";

interface Member {
  store: PostgresStore;
  service: CronService;
}

export default {
  name: "cluster",
  async run() {
    const result = await standardRun();
    if (process.argv.includes("--scale")) await scaleRun();
    return result;
  },
} satisfies BenchSuite;

/** The 5-scheduler run in one process (3 at a time, two leaders cut off). */
async function standardRun(): Promise<BenchSuiteResult> {
  const load = loadAtStart();
  const title = "Cron cluster on PostgreSQL: takeover after the leader is cut off, lateness, exactly once";
  if (!HAVE_POSTGRES) return { title, rows: [], notes: [`skipped: ${SKIP_REASON}`], loadAtStart: load };
  let cluster: Cluster | undefined;
  const members: Member[] = [];
  try {
    cluster = await startCluster();
    const url = cluster.url;
    /** Fire times by job id (every fire, repeats included), from the executor's sink. */
    const fires = new Map<string, number[]>();
    /** Fires by scheduler, and the statements every scheduler's store sent (its pool's queries). */
    const firedBy = new Map<string, number>();
    let statements = 0;
    const join = async (owner: string): Promise<Member> => {
      const store = await openPostgresStore({ connectionString: url, schema: "bench" });
      // every statement of the bundle goes through its pool (sessions, cron, lease alike)
      const pool = (store.cron as unknown as { db: { pool: { query: (...a: unknown[]) => unknown } } }).db
        .pool;
      const query = pool.query.bind(pool);
      pool.query = (...args: unknown[]) => {
        statements++;
        return query(...args);
      };
      const sessions = {
        get: store.sessions.get.bind(store.sessions),
        create: store.sessions.create.bind(store.sessions),
        append: async (
          key: string,
          messages: Parameters<PostgresStore["sessions"]["append"]>[1],
          options?: { idempotencyKey?: string },
        ) => {
          const added = await store.sessions.append(key, messages, options);
          const id = /^System: (\S+)/.exec(String(messages[0]?.content))?.[1];
          if (added && id) {
            fires.set(id, [...(fires.get(id) ?? []), Date.now()]);
            firedBy.set(owner, (firedBy.get(owner) ?? 0) + 1);
          }
          return added;
        },
      };
      const service = new CronService({
        store: store.cron,
        lease: store.lease,
        owner,
        leaderTtlMs: LEADER_LEASE_MS,
        maxConcurrentRuns: 4,
        executor: new CronExecutor({ sessions, defaultAgentId: "main", clock: systemClock }),
      });
      await service.start();
      const member = { store, service };
      members.push(member);
      return member;
    };
    let live = [await join("m1"), await join("m2"), await join("m3")];
    const cpuStart = process.cpuUsage();
    const statementsStart = statements;
    const t0 = Date.now() + 2_000;
    const due = new Map<string, number>();
    for (let i = 0; i < JOBS; i++) {
      const at = t0 + Math.round((i * SPREAD_MS) / JOBS);
      await (live[i % 3] as Member).service.add({
        name: `j${i}`,
        schedule: { kind: "at", at: new Date(at).toISOString() },
        deleteAfterRun: false,
        payload: { kind: "systemEvent", text: `j${i}` },
      });
      due.set(`j${i}`, at);
    }
    const gaps: number[] = [];
    let next = 4;
    for (const share of [1 / 3, 2 / 3]) {
      while (fires.size < JOBS * share) await delay(20);
      let leader: Member | undefined;
      for (const m of live) if ((await m.service.status()).role === "leader") leader = m;
      if (!leader) throw new Error("no leader");
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query("SELECT pg_terminate_backend($1)", [leader.store.member.backendPid]);
      await admin.end();
      const cutAt = Date.now();
      const before = fires.size;
      void leader.service.stop().catch(() => {});
      live = live.filter((m) => m !== leader);
      live.push(await join(`m${next++}`));
      while (fires.size === before) await delay(5);
      gaps.push(Math.min(...[...fires.values()].flat().filter((t) => t > cutAt)) - cutAt);
    }
    while (fires.size < JOBS) await delay(50);
    const cpu = process.cpuUsage(cpuStart);
    const sent = statements - statementsStart;
    await delay(1_000);
    const late = [...fires.entries()].map(([id, times]) => (times[0] as number) - (due.get(id) as number));
    const repeats = [...fires.values()].filter((t) => t.length > 1).length;
    const events = (await (live[0] as Member).store.sessions.history(MAIN, { limit: 10_000 })).length;
    const rows: BenchRow[] = [
      { name: "leader lease (what a takeover waited out before)", value: LEADER_LEASE_MS, unit: "ms" },
      {
        name: "firing stopped after the leader was cut off (worst of 2)",
        value: Math.max(...gaps),
        unit: "ms",
        baseline: "leader lease (what a takeover waited out before)",
        target: "≤ 2 s",
        met: Math.max(...gaps) <= 2_000,
        note: `each: ${gaps.map((g) => `${g} ms`).join(", ")}`,
      },
      { name: `fire lateness p50 (${JOBS} jobs)`, value: percentile(late, 50), unit: "ms" },
      {
        name: `fire lateness p99 (${JOBS} jobs)`,
        value: percentile(late, 99),
        unit: "ms",
        target: "< 1 s",
        met: percentile(late, 99) < 1_000,
      },
      {
        name: "schedulers that fired jobs (every one claims due jobs itself)",
        value: [...firedBy.values()].filter((n) => n > 0).length,
        unit: `of ${members.length}`,
        note: [...firedBy.entries()].map(([owner, n]) => `${owner}: ${n}`).join(", "),
      },
      {
        name: "store statements per fire (all schedulers, adds and takeovers included)",
        value: sent / JOBS,
        unit: "round trips",
      },
      {
        name: "process CPU per fire (all schedulers in this process)",
        value: (cpu.user + cpu.system) / 1_000 / JOBS,
        unit: "ms",
      },
      {
        name: "jobs fired exactly once (one system event each in the shared session)",
        value: events,
        unit: `of ${JOBS}`,
        target: `${JOBS}, no repeat`,
        met: events === JOBS && repeats === 0,
        note: `${repeats} repeated effects`,
      },
    ];
    return {
      title,
      rows,
      loadAtStart: load,
      notes: [
        `3 CronService schedulers in one process, each on its own store instance (pool of 4, its own liveness connection) on a throwaway PostgreSQL cluster on this machine; ${JOBS} one-shot systemEvent jobs due over ${SPREAD_MS / 1_000} s, added round robin, 4 runs at a time. Twice, once a third and two thirds had fired, the leader was cut off the way PostgreSQL sees a killed process (its liveness connection's backend terminated; its scheduler then stopped, its late writes fenced) and a fresh scheduler joined. "Firing stopped" is from the cut to the next fire by anyone; before the liveness connection it was bounded by the leader lease. Lateness is each job's first fire against its due time. Every scheduler claims due jobs itself (the store's claims are shared); the leader only sweeps a dead one's claims. Statements and CPU per fire count from the first job added to the last fire: every statement any scheduler's store sent (claims, job reads, appends, run-log lines, releases, wake-ups, lease probes, sweeps, the adds themselves), and this process's CPU, divided by the jobs; before shared claims and one-statement releases a fire cost about 10 round trips.`,
      ],
    };
  } finally {
    for (const m of members) await m.service.stop().catch(() => {});
    for (const m of members) await m.store.close().catch(() => {});
    await cluster?.stop().catch(() => {});
  }
}

/** The scale run on a fresh cluster, its results in a file of their own. */
async function scaleRun(): Promise<void> {
  const cluster = await startCluster({ statements: true });
  try {
    const result = await runScale(cluster.url);
    const file = new URL("../../results/cluster-scale.md", import.meta.url);
    const text = renderSuite("cluster --scale", result, new Date().toISOString().slice(0, 10));
    console.log(text);
    writeFileSync(file, text);
  } finally {
    await cluster.stop().catch(() => {});
  }
}
