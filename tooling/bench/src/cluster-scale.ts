/**
 * `pnpm bench cluster --scale`: the issue's scale run of `clawtools serve` on one PostgreSQL.
 * 10 real serve processes (stdio, the MCP SDK client as a host), 100 sessions for each, 10,000
 * one-shot jobs due over about two minutes, each posting to a loopback webhook and leaving a
 * system event in the main session; the leader SIGKILLed every minute and a fresh serve started
 * in its place. Measures: every job fired exactly once, lateness, how long firing stopped after a
 * kill, nothing left claimed or running for a dead process, every serve reading every session.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CronExecutor, CronService, systemClock } from "@clawtools/automation";
import { delay } from "@clawtools/core/time";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// the bench package does not depend on the PostgreSQL store: its source (and its pg) load by path
import { openPostgresStore } from "../../../backends/store-postgres/src/index.js";
import { type BenchRow, type BenchSuiteResult, percentile } from "./harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const bin = path.join(root, "apps", "cli", "dist", "bin.js");
const pg = createRequire(path.join(root, "backends", "store-postgres", "package.json"))("pg") as {
  Client: new (config: {
    connectionString: string;
  }) => {
    connect(): Promise<unknown>;
    query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
    end(): Promise<void>;
  };
};

// CLAWTOOLS_BENCH_SCALE_SMALL=1: 3 serves, 300 jobs over 30 s, a kill every 15 s (to try the run
// itself); CLAWTOOLS_BENCH_SCALE_{SERVES,JOBS,SPREAD_S,KILL_EVERY_S} set one figure each (a run
// sized for a loaded machine, its per-fire counts still comparable); CLAWTOOLS_BENCH_SCALE_CPU_PROF=DIR:
// each serve writes a CPU profile there when it exits (the killed ones do not)
const SMALL = process.env.CLAWTOOLS_BENCH_SCALE_SMALL === "1";
const sized = (name: string, fallback: number) => {
  const value = Number(process.env[`CLAWTOOLS_BENCH_SCALE_${name}`]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SERVES = sized("SERVES", SMALL ? 3 : 10);
const SESSIONS_EACH = 100;
const JOBS = sized("JOBS", SMALL ? 300 : 10_000);
const SPREAD_MS = sized("SPREAD_S", SMALL ? 30 : 120) * 1_000;
const KILL_EVERY_MS = sized("KILL_EVERY_S", SMALL ? 15 : 60) * 1_000;

interface Serve {
  name: string;
  pid: number;
  client: Client;
  call(tool: string, args: Record<string, unknown>): Promise<any>;
  stderr(): string;
}

/** CPU seconds a process used so far (utime + stime from /proc), 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A loopback webhook: the first hit of each job (time, idempotency key), and every hit. */
async function hooks() {
  const first = new Map<string, number>();
  const keys = new Map<string, Set<string>>();
  let hits = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const at = Date.now();
      const jobId = String(JSON.parse(body).jobId);
      hits++;
      if (!first.has(jobId)) first.set(jobId, at);
      keys.set(jobId, (keys.get(jobId) ?? new Set()).add(String(req.headers["idempotency-key"])));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, first, keys, hits: () => hits, server };
}

type Admin = InstanceType<typeof pg.Client>;
interface DbCounts {
  commits: number;
  /** Calls by statement text, when the server loads pg_stat_statements. */
  calls?: Map<string, number>;
}

/** The database's commits so far, and each statement's calls when pg_stat_statements is loaded. */
async function dbCounts(admin: Admin): Promise<DbCounts> {
  const { rows } = await admin.query(
    "SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()",
  );
  const commits = Number(rows[0]?.n);
  try {
    await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const stats = await admin.query(
      "SELECT query, calls::bigint AS calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    const calls = new Map<string, number>();
    for (const row of stats.rows) {
      const text = String(row.query).replace(/\s+/g, " ").slice(0, 90);
      calls.set(text, (calls.get(text) ?? 0) + Number(row.calls));
    }
    return { commits, calls };
  } catch {
    // not preloaded (the default): commits only
    return { commits };
  }
}

/**
 * Of the late jobs, how late each was claimed (its run's `runAtMs` against its due time) and how
 * long its claim waited for the webhook call: whether lateness is in claiming or in running.
 */
async function claimSplit(
  admin: Admin,
  late: Array<[string, number]>,
  due: Map<string, number>,
): Promise<string> {
  if (late.length === 0) return "";
  const { rows } = await admin.query(
    "SELECT job_id, (entry::jsonb->>'runAtMs')::bigint AS run_at FROM clawtools.cron_runs WHERE job_id = ANY($1)",
    [late.map(([id]) => id)],
  );
  const runAt = new Map(rows.map((row) => [String(row.job_id), Number(row.run_at)]));
  const claimed = late.filter(([id]) => runAt.has(id));
  const claimLate = claimed.map(([id]) => (runAt.get(id) ?? 0) - (due.get(id) ?? 0));
  const waited = claimed.map(([id, at]) => at - (runAt.get(id) ?? at));
  return `; of those, claimed late by p50 ${percentile(claimLate, 50)} ms (p90 ${percentile(claimLate, 90)}), claim to webhook p50 ${percentile(waited, 50)} ms (p90 ${percentile(waited, 90)})`;
}

/** Commits and statements per fire between two counts, with the statements most called. */
function perFire(before: DbCounts, after: DbCounts, fires: number) {
  const n = Math.max(1, fires);
  const commits = (after.commits - before.commits) / n;
  if (!after.calls) return { commits };
  const deltas = [...after.calls]
    .map(([query, calls]) => [query, calls - (before.calls?.get(query) ?? 0)] as const)
    .filter(([, d]) => d > 0)
    .sort((a, b) => b[1] - a[1]);
  const statements = deltas.reduce((sum, [, d]) => sum + d, 0) / n;
  const top = deltas
    .slice(0, 12)
    .map(([query, d]) => `${(d / n).toFixed(2)} × ${query}`)
    .join(" / ");
  return { commits, statements, top };
}

export async function runScale(url: string): Promise<BenchSuiteResult> {
  const loadStart = loadavg()[0]!;
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-bench-scale-"));
  const hook = await hooks();
  const serves: Serve[] = [];
  const cpu = new Map<number, number>();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const config = path.join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      store: url,
      sessions: { visibility: "all", agentToAgent: { enabled: true } },
      automation: { webhook: { allowPrivateNetwork: true, attempts: 1 }, cron: { maxConcurrentRuns: 8 } },
    }),
  );
  let started = 0;
  const start = async (): Promise<Serve> => {
    const name = `s${++started}`;
    let stderr = "";
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        ...(process.env.CLAWTOOLS_BENCH_SCALE_CPU_PROF
          ? ["--cpu-prof", "--cpu-prof-dir", process.env.CLAWTOOLS_BENCH_SCALE_CPU_PROF]
          : []),
        bin,
        "serve",
        "--workspace",
        dir,
        "--state-dir",
        path.join(dir, `.state-${name}`),
      ].concat(["--profile", "full", "--owner", "--config", config]),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d) => {
      stderr = (stderr + String(d)).slice(-4_000);
    });
    const client = new Client({ name: `scale-${name}`, version: "1" });
    await client.connect(transport);
    const call = async (tool: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
      if (result.isError) throw new Error(`${tool} on ${name} failed: ${text}`);
      return JSON.parse(text);
    };
    const serve = { name, pid: transport.pid as number, client, call, stderr: () => stderr };
    serves.push(serve);
    await call("cron", { action: "status" }); // starts its scheduler
    return serve;
  };
  const sampleCpu = () => {
    for (const s of serves) {
      const used = cpuSeconds(s.pid);
      if (used > 0) cpu.set(s.pid, used);
    }
  };
  const store = await openPostgresStore({ connectionString: url, maxConnections: 4 });
  try {
    let live = await Promise.all(Array.from({ length: SERVES }, () => start()));
    const died: string[] = [];
    // 100 sessions for each serve, each with a short transcript, written as that serve writes them
    for (let s = 0; s < SERVES; s++)
      for (let i = 0; i < SESSIONS_EACH; i++) {
        const key = `agent:main:s${s + 1}-session-${i}`;
        await store.sessions.create({ key, agentId: "main", label: `s${s + 1} session ${i}` });
        await store.sessions.append(key, [
          { role: "user", content: `hello from s${s + 1} #${i}`, timestamp: Date.now() },
        ]);
      }
    const leader = async (): Promise<Serve> => {
      for (;;) {
        // a serve that died unasked is set aside and named (its stderr's end kept for the notes)
        const roles = await Promise.all(
          live.map(async (s) => ({
            s,
            role: await s.call("cron", { action: "status" }).then(
              (st) => st.role as string,
              (error: Error) => {
                died.push(`${s.name}: ${error.message}; stderr: ${s.stderr().slice(-600)}`);
                return "dead";
              },
            ),
          })),
        );
        live = live.filter((s) => !roles.some((r) => r.s === s && r.role === "dead"));
        const found = roles.find((r) => r.role === "leader");
        if (found) return found.s;
        await delay(100);
      }
    };

    // the jobs, added through the store by another process's CronService (no timer of its own)
    const adder = new CronService({
      store: store.cron,
      enabled: false,
      executor: new CronExecutor({ defaultAgentId: "main", clock: systemClock }),
    });
    const xactsBefore = Number(
      (
        await admin.query(
          "SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()",
        )
      ).rows[0]?.n,
    );
    sampleCpu();
    const cpuBefore = [...cpu.values()].reduce((a, b) => a + b, 0);
    // time to add them all first (10 s a thousand here: 100 s for 10,000)
    const t0 = Date.now() + Math.max(10_000, JOBS * 10);
    const due = new Map<string, number>();
    const addStart = Date.now();
    for (let i = 0; i < JOBS; i += 8)
      await Promise.all(
        Array.from({ length: Math.min(8, JOBS - i) }, async (_, k) => {
          const at = t0 + Math.round(((i + k) * SPREAD_MS) / JOBS);
          const job = await adder.add({
            name: `j${i + k}`,
            schedule: { kind: "at", at: new Date(at).toISOString() },
            sessionTarget: "main",
            deleteAfterRun: false,
            payload: { kind: "systemEvent", text: `fired j${i + k}` },
            delivery: { mode: "webhook", to: hook.url },
          });
          due.set(job.id, at);
        }),
      );
    const addMs = Date.now() - addStart;
    // the firing alone (what the serves do from the last add on, idle waiting and kills included)
    sampleCpu();
    const cpuFiring = [...cpu.values()].reduce((a, b) => a + b, 0);
    const firingBefore = await dbCounts(admin);

    // the leader killed every minute from the first due time, a fresh serve in its place
    const gaps: number[] = [];
    const killed: string[] = [];
    const killAts: number[] = [];
    for (let kill = t0 + KILL_EVERY_MS / 2; kill < t0 + SPREAD_MS; kill += KILL_EVERY_MS) {
      while (Date.now() < kill) await delay(200);
      sampleCpu();
      const victim = await leader();
      process.kill(victim.pid, "SIGKILL");
      const at = Date.now();
      killAts.push(at);
      killed.push(victim.name);
      live = live.filter((s) => s !== victim);
      const before = hook.first.size;
      live.push(await start());
      while (hook.first.size === before && Date.now() - at < 60_000) await delay(5);
      const next = Math.min(...[...hook.first.values()].filter((t) => t > at));
      gaps.push(next - at);
    }
    const deadline = t0 + SPREAD_MS + 120_000;
    while (hook.first.size < JOBS && Date.now() < deadline) {
      await delay(500);
      sampleCpu();
    }
    sampleCpu();
    const fires = hook.first.size;
    const cpuUsed = [...cpu.values()].reduce((a, b) => a + b, 0) - cpuBefore;
    const cpuFired = [...cpu.values()].reduce((a, b) => a + b, 0) - cpuFiring;
    const firing = perFire(firingBefore, await dbCounts(admin), fires);
    const xacts =
      Number(
        (
          await admin.query(
            "SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()",
          )
        ).rows[0]?.n,
      ) - xactsBefore;
    await delay(2_000);
    const late = [...hook.first.entries()].map(([id, at]) => at - (due.get(id) ?? at));
    // where the late fires fall: due within 15 s after a kill (a serve killed, a fresh one starting) or not
    const afterKill = (id: string) =>
      killAts.some((k) => (due.get(id) ?? 0) >= k && (due.get(id) ?? 0) < k + 15_000);
    const lateIds = [...hook.first.entries()].filter(([id, at]) => at - (due.get(id) ?? at) >= 1_000);
    const lateNote = `${lateIds.length} jobs 1 s late or more, ${lateIds.filter(([id]) => afterKill(id)).length} of them due within 15 s after a kill; p99 of the jobs due elsewhere ${percentile(
      [...hook.first.entries()].filter(([id]) => !afterKill(id)).map(([id, at]) => at - (due.get(id) ?? at)),
      99,
    )} ms; the latest ${Math.max(...late)} ms${await claimSplit(admin, lateIds, due)}`;
    const repeatedKeys = [...hook.keys.values()].filter((k) => k.size > 1).length;
    // one system event per job in the shared main session
    const events = await admin.query(
      `SELECT count(*)::int AS n, count(DISTINCT message::jsonb->>'content')::int AS d FROM clawtools.transcript
       WHERE session_key = 'agent:main:main' AND message::jsonb->>'content' LIKE 'System: fired j%'`,
    );
    const eventCount = Number(events.rows[0]?.n);
    const eventDistinct = Number(events.rows[0]?.d);
    // nothing left claimed, marked running, or held by a dead process (polled: the last releases land)
    let left = -1;
    for (let i = 0; i < 60 && left !== 0; i++) {
      if (i > 0) await delay(500);
      const rows = await admin.query(
        `SELECT (SELECT count(*) FROM clawtools.cron_jobs WHERE lease_owner IS NOT NULL OR running_at IS NOT NULL OR enabled)
           + (SELECT count(*) FROM clawtools.runs WHERE status = 'running') AS n`,
      );
      left = Number(rows.rows[0]?.n);
    }
    // every serve reads every session: sessions_list walked page by page, one transcript read
    const expected = SERVES * SESSIONS_EACH;
    let readers = 0;
    const reads: string[] = [];
    for (const s of [...live]) {
      if (!(await s.call("cron", { action: "status" }).catch(() => undefined))) {
        died.push(`${s.name} (at the end): stderr: ${s.stderr().slice(-600)}`);
        live = live.filter((x) => x !== s);
        continue;
      }
      let seen = 0;
      let cursor: string | undefined;
      do {
        const page = await s.call("sessions_list", { limit: 200, ...(cursor ? { cursor } : {}) });
        seen += page.sessions.filter((e: { key: string }) => e.key !== "main").length;
        cursor = page.nextCursor;
      } while (cursor);
      const history = await s.call("sessions_history", { sessionKey: "agent:main:s1-session-7" });
      const read = JSON.stringify(history).includes("hello from s1 #7");
      reads.push(
        `${s.name}: ${seen} listed${read ? "" : `, history ${JSON.stringify(history).slice(0, 300)}`}`,
      );
      if (seen >= expected && read) readers++;
    }
    const loadEnd = loadavg()[0]!;
    const rows: BenchRow[] = [
      {
        name: `jobs fired (first webhook call) of ${JOBS.toLocaleString("en")}`,
        value: fires,
        unit: "jobs",
        target: `${JOBS.toLocaleString("en")}`,
        met: fires === JOBS,
      },
      {
        name: "jobs fired exactly once (one idempotency key each; one system event each in the main session)",
        value: eventDistinct,
        unit: `of ${JOBS.toLocaleString("en")}`,
        target: "each once, no repeat",
        met: fires === JOBS && repeatedKeys === 0 && eventCount === JOBS && eventDistinct === JOBS,
        note: `${repeatedKeys} jobs with a second key, ${eventCount - eventDistinct} repeated events, ${hook.hits() - fires} repeated deliveries`,
      },
      { name: "fire lateness p50", value: percentile(late, 50), unit: "ms" },
      {
        name: "fire lateness p99",
        value: percentile(late, 99),
        unit: "ms",
        target: "< 1 s",
        met: percentile(late, 99) < 1_000,
        note: lateNote,
      },
      {
        name: `firing stopped after a leader kill (worst of ${gaps.length})`,
        value: Math.max(...gaps),
        unit: "ms",
        target: "≤ 2 s",
        met: Math.max(...gaps) <= 2_000,
        note: `each: ${gaps.map((g) => `${g} ms`).join(", ")}; killed ${killed.join(", ")}`,
      },
      {
        name: "claims, running cron runs and running sub-agent runs left at the end",
        value: left,
        unit: "rows",
        target: "0",
        met: left === 0,
      },
      {
        name: `serves that read every session (${expected.toLocaleString("en")}, paged) and another serve's transcript`,
        value: readers,
        unit: `of ${live.length}`,
        target: `${live.length}`,
        met: readers === live.length,
        note: reads.join("; "),
      },
      {
        name: "serves that died unasked (not killed by the bench)",
        value: died.length,
        unit: "serves",
        target: "0",
        met: died.length === 0,
        ...(died.length ? { note: died.join(" | ").replace(/\s+/g, " ").replace(/\|/g, "/") } : {}),
      },
      {
        name: "database transactions per fire (all processes: adds, claims, events, run lines, probes, status calls)",
        value: xacts / Math.max(1, fires),
        unit: "commits",
      },
      {
        name: "serve CPU per fire (all serves, killed ones up to their last sample)",
        value: (cpuUsed * 1_000) / Math.max(1, fires),
        unit: "ms",
      },
      {
        name: "database transactions per fire, firing only (from the last job added)",
        value: firing.commits,
        unit: "commits",
      },
      ...(firing.statements === undefined
        ? []
        : [
            {
              name: "statements per fire, firing only (pg_stat_statements)",
              value: firing.statements,
              unit: "statements",
              note: firing.top,
            },
          ]),
      {
        name: "serve CPU per fire, firing only (from the last job added)",
        value: (cpuFired * 1_000) / Math.max(1, fires),
        unit: "ms",
      },
    ];
    return {
      title: `Cron cluster at scale: ${SERVES} serves on one PostgreSQL, ${JOBS.toLocaleString("en")} jobs, the leader killed every ${KILL_EVERY_MS / 1_000} s`,
      rows,
      notes: [
        `Load average (1 min) ${loadStart.toFixed(2)} at the start and ${loadEnd.toFixed(2)} at the end, on 2 cores.`,
        `${SERVES} \`clawtools serve --config\` processes (stdio, an MCP SDK client each; \`--store\` PostgreSQL, a throwaway cluster on this machine, default pools; cron maxConcurrentRuns 8, no cluster-wide cap), ${SESSIONS_EACH} sessions with a one-message transcript for each serve (${expected.toLocaleString("en")}, written through the store as a serve writes them). ${JOBS.toLocaleString("en")} one-shot systemEvent jobs with webhook delivery to a loopback server, due over ${SPREAD_MS / 1_000} s, added beforehand through the store by a CronService of the bench process (no timer; ${(addMs / 1_000).toFixed(1)} s for all). The leader (the serve whose \`cron status\` says leader: every serve claims due jobs, the leader also sweeps dead claims) was SIGKILLed ${KILL_EVERY_MS / 2_000} s after the first due time and every ${KILL_EVERY_MS / 1_000} s after, and a fresh serve started each time. Lateness is each job's first webhook call against its due time. "Exactly once": one idempotency key per job at the webhook and one system event per job in the shared main session. Transactions per fire are the database's commits from the first job added to the last fire over the jobs fired (everything any process did, status calls included); CPU per fire is the serves' CPU over the same span (read from /proc).`,
      ],
    };
  } finally {
    await Promise.all(serves.map((s) => s.client.close().catch(() => {})));
    for (const s of serves) {
      try {
        process.kill(s.pid, "SIGKILL");
      } catch {}
    }
    await store.close().catch(() => {});
    await admin.end().catch(() => {});
    hook.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
