import { spawn } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startModelServer } from "../../../adapters/runner-pi/test/model-server.js";
import {
  type Cluster,
  HAVE_POSTGRES,
  SKIP_REASON,
  startCluster,
} from "../../../backends/store-postgres/test/cluster.js";
import { bin, requireBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// A cluster in small: three real `clawtools serve` processes on one PostgreSQL database, one-shot
// jobs added through all of them, and the leader (the process that fires) killed with SIGKILL
// twice and replaced. Every job fires exactly once, leadership passes on without waiting out the
// old leader's lease, nothing stays claimed by a dead process, and every serve reads the sessions.
// pg is the store's dependency, not the CLI's: the admin connection borrows the store's copy.
const pg = createRequire(new URL("../../../backends/store-postgres/package.json", import.meta.url))("pg") as {
  Client: new (config: {
    connectionString: string;
  }) => {
    connect(): Promise<unknown>;
    query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
    end(): Promise<void>;
  };
};

const JOBS = 45;
const LEADER_LEASE_MS = 30_000;

interface Serve {
  name: string;
  pid: number;
  client: Client;
  call: (tool: string, args: Record<string, unknown>) => Promise<any>;
  stderr: () => string;
}

interface Hit {
  jobId: string;
  key: string;
  at: number;
}

function startHooks(): Promise<{ url: string; hits: Hit[]; events: EventEmitter; server: Server }> {
  const hits: Hit[] = [];
  const events = new EventEmitter();
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      hits.push({
        jobId: JSON.parse(body).jobId,
        key: String(req.headers["idempotency-key"]),
        at: Date.now(),
      });
      res.writeHead(204).end();
      events.emit("hit");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/hook`, hits, events, server });
    }),
  );
}

/** Runs the CLI to its exit: code and stderr. */
function runCli(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.end();
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!HAVE_POSTGRES)(
  HAVE_POSTGRES ? "serve cluster on PostgreSQL" : `serve cluster on PostgreSQL (skipped: ${SKIP_REASON})`,
  () => {
    let cluster: Cluster;
    let hooks: Awaited<ReturnType<typeof startHooks>>;
    let workspace: string;
    const serves: Serve[] = [];

    beforeAll(async () => {
      requireBuilt();
      cluster = await startCluster();
      hooks = await startHooks();
      workspace = mkdtempSync(path.join(tmpdir(), "cli-cluster-"));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(serves.map((s) => s.client.close().catch(() => {})));
      hooks?.server.close();
      await cluster?.stop();
    }, 60_000);

    it("3 serves, the leader killed twice: every job fires once, leadership passes before the old lease ends, no claim is left to the dead, sessions read everywhere", async () => {
      const config = path.join(workspace, "config.json");
      writeFileSync(
        config,
        JSON.stringify({
          store: cluster.url,
          automation: {
            webhook: { allowPrivateNetwork: true, attempts: 1 },
            cron: { leaderLeaseMs: LEADER_LEASE_MS, maxConcurrentRuns: 4, clusterMaxConcurrentRuns: 8 },
          },
        }),
      );
      let started = 0;
      const start = async (): Promise<Serve> => {
        const name = `s${++started}`;
        const { client, transport, stderr } = await connectCli(
          [
            "serve",
            "--workspace",
            workspace,
            "--state-dir",
            path.join(workspace, `.state-${name}`),
            "--profile",
            "full",
            "--owner",
            "--config",
            config,
          ],
          { name: `cluster-${name}` },
        );
        const call = async (tool: string, args: Record<string, unknown>) => {
          const result = await client.callTool({ name: tool, arguments: args });
          if (result.isError) throw new Error(`${tool} on ${name} failed: ${text(result)}`);
          return JSON.parse(text(result));
        };
        const serve = { name, pid: transport.pid as number, client, call, stderr };
        serves.push(serve);
        // status starts the scheduler (and says whether this one leads)
        await call("cron", { action: "status" });
        return serve;
      };
      let live = [await start(), await start(), await start()];
      const statuses = async () =>
        Promise.all(live.map(async (s) => ({ s, st: await s.call("cron", { action: "status" }) })));
      const leader = async (): Promise<Serve> => {
        let found: Serve | undefined;
        await vi.waitFor(
          async () => {
            const all = await statuses();
            const leaders = all.filter((x) => x.st.role === "leader");
            expect(leaders).toHaveLength(1);
            // every process names the same leader
            for (const { st } of all) expect(st.leader?.owner).toBe(leaders[0]?.st.owner);
            found = leaders[0]?.s;
          },
          { timeout: 20_000, interval: 100 },
        );
        return found as Serve;
      };
      const first = await leader();
      const followers = (await statuses()).filter((x) => x.s !== first);
      // a follower fires too: the store's claims are shared, under the cluster-wide cap
      for (const { st } of followers)
        expect(st).toMatchObject({
          role: "follower",
          sharedClaims: true,
          claims: { running: [], queued: [] },
          timings: { leaderLeaseMs: LEADER_LEASE_MS, clusterMaxConcurrentRuns: 8 },
        });

      // one-shot jobs due over ~15 s, added round robin through every serve
      const t0 = Date.now() + 3_000;
      const ids: string[] = [];
      for (let i = 0; i < JOBS; i++) {
        const via = live[i % live.length] as Serve;
        const job = await via.call("cron", {
          action: "add",
          job: {
            name: `j${i}`,
            schedule: { kind: "at", at: new Date(t0 + i * 330).toISOString() },
            sessionTarget: "main",
            deleteAfterRun: false,
            payload: { kind: "systemEvent", text: `fired j${i}` },
            delivery: { mode: "webhook", to: hooks.url },
          },
        });
        ids.push(job.id);
      }

      // twice: once a third of the jobs have fired, the leader is killed and a fresh serve takes its place
      const kills: number[] = [];
      for (const share of [1 / 3, 2 / 3]) {
        while (new Set(hooks.hits.map((h) => h.jobId)).size < Math.floor(JOBS * share))
          await once(hooks.events, "hit");
        const victim = await leader();
        process.kill(victim.pid, "SIGKILL");
        kills.push(Date.now());
        live = live.filter((s) => s !== victim);
        live.push(await start());
      }

      while (new Set(hooks.hits.map((h) => h.jobId)).size < JOBS) await once(hooks.events, "hit");
      // leadership passed on without waiting out the dead leader's lease: the first fire after
      // each kill came before that lease could have ended
      for (const killedAt of kills) {
        const next = hooks.hits.find((h) => h.at > killedAt);
        expect(next).toBeDefined();
        expect((next as Hit).at - killedAt).toBeLessThan(LEADER_LEASE_MS);
      }

      // every job fired once: one key per job (a repeat after a kill carries the same key), one
      // system event per job in the shared main session, read through every live serve
      const keysByJob = new Map<string, Set<string>>();
      for (const hit of hooks.hits)
        keysByJob.set(hit.jobId, (keysByJob.get(hit.jobId) ?? new Set()).add(hit.key));
      expect([...keysByJob.keys()].sort()).toEqual([...ids].sort());
      for (const keys of keysByJob.values()) expect(keys.size).toBe(1);
      const expected = Array.from({ length: JOBS }, (_, i) => `System: fired j${i}`).sort();
      for (const s of live) {
        const history = await s.call("sessions_history", { sessionKey: "main", limit: 500 });
        expect(history.messages.map((m: { content: unknown }) => String(m.content)).sort()).toEqual(expected);
      }

      // no claim or run left to a dead process: every job ends released, off (a finished
      // one-shot), with one ok run in its log
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      try {
        await vi.waitFor(
          async () => {
            const held = await admin.query(
              "SELECT count(*)::int AS n FROM clawtools.cron_jobs WHERE lease_owner IS NOT NULL OR running_at IS NOT NULL OR enabled",
            );
            expect(held.rows[0]?.n).toBe(0);
          },
          { timeout: 20_000, interval: 200 },
        );
      } finally {
        await admin.end();
      }
      const reader = live[0] as Serve;
      for (const id of ids) {
        const runs = await reader.call("cron", { action: "runs", jobId: id });
        expect(runs.entries.filter((e: { status: string }) => e.status === "ok")).toHaveLength(1);
      }
      const final = await statuses();
      expect(final.filter((x) => x.st.role === "leader")).toHaveLength(1);
      for (const { st } of final) expect(st.claims).toEqual({ running: [], queued: [] });
    }, 150_000);

    it("a database out of connection slots fails the start in one line saying what to change; --agent-id names the serve's main session", async () => {
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      try {
        // a role with room for one connection: the store's pool gets it, its liveness connection
        // is refused (superusers are exempt from such limits, so not the cluster's own user)
        await admin.query("CREATE ROLE tight LOGIN CONNECTION LIMIT 1");
        await admin.query("CREATE DATABASE tight OWNER tight");
        const tight = new URL(cluster.url);
        tight.username = "tight";
        tight.pathname = "/tight";
        const refused = await runCli(
          ["serve", "--state-dir", path.join(workspace, ".tight"), "--store", tight.toString()],
          workspace,
        );
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(
          "cannot open it: the database refuses more connections (too many clients already): lower the pool size (storeConnections in the config, --store-connections) or raise the server's max_connections",
        );
        expect(refused.stderr).not.toContain("    at ");

        await admin.query("CREATE DATABASE named");
        const named = new URL(cluster.url);
        named.pathname = "/named";
        const { client } = await connectCli(
          [
            "serve",
            "--workspace",
            workspace,
            "--state-dir",
            path.join(workspace, ".named"),
            "--store",
            named.toString(),
            "--store-connections",
            "2",
            "--agent-id",
            "ci-runner",
          ],
          { name: "cluster-named" },
        );
        serves.push({ name: "named", pid: 0, client, call: async () => undefined, stderr: () => "" });
        const listed = await client.callTool({ name: "sessions_list", arguments: {} });
        expect(JSON.parse(text(listed)).sessions.map((e: { key: string }) => e.key)).toEqual(["main"]);
        const other = new pg.Client({ connectionString: named.toString() });
        await other.connect();
        try {
          const rows = await other.query("SELECT key FROM clawtools.sessions");
          expect(rows.rows).toEqual([{ key: "agent:ci-runner:main" }]);
        } finally {
          await other.end();
        }
      } finally {
        await admin.end();
      }
    }, 60_000);

    it("a sub-agent run of a serve on another host: SIGKILL that serve and the other ends the run lost at once, not after the 60 s heartbeat staleness", async () => {
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      let answer: (reply: { text: string }) => void = () => {};
      const model = await startModelServer(() => new Promise((resolve) => (answer = resolve)));
      try {
        await admin.query("CREATE DATABASE remote_runs");
        const url = new URL(cluster.url);
        url.pathname = "/remote_runs";
        const env = { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-loopback" };
        const open = async (name: string) => {
          const args = [
            "serve",
            "--workspace",
            workspace,
            "--state-dir",
            path.join(workspace, `.state-${name}`),
          ];
          const started = await connectCli(
            [...args, "--profile", "full", "--store", url.toString(), "--model", "openai/scripted"],
            { env, name: `cluster-${name}` },
          );
          serves.push({
            name,
            pid: started.transport.pid as number,
            client: started.client,
            call: async () => 0,
            stderr: started.stderr,
          });
          return started;
        };
        const holder = await open("far");
        const watcher = await open("near");
        const call = async (client: Client, tool: string, args: Record<string, unknown>) =>
          JSON.parse(text(await client.callTool({ name: tool, arguments: args })));
        const spawned = await call(holder.client, "sessions_spawn", { task: "think for a long time" });
        expect(spawned.status).toBe("accepted");
        // the row names another machine, as a serve there writes it: no pid of this one is checked
        const db = new pg.Client({ connectionString: url.toString() });
        await db.connect();
        try {
          await db.query(
            `UPDATE clawtools.runs SET record = jsonb_set(record::jsonb, '{owner,host}', '"elsewhere.example"')::text WHERE run_id = $1`,
            [spawned.runId],
          );
          const row = async () =>
            JSON.parse(
              String(
                (await db.query("SELECT record FROM clawtools.runs WHERE run_id = $1", [spawned.runId]))
                  .rows[0]?.record,
              ),
            );
          // alive on the other host: the watcher lists it running
          expect((await call(watcher.client, "subagents", {})).active).toMatchObject([
            { runId: spawned.runId },
          ]);
          process.kill(holder.transport.pid as number, "SIGKILL");
          // the watcher's own background check ends it (no tool call here); staleness would take 60 s
          await vi.waitFor(async () => expect((await row()).status).toBe("lost"), {
            timeout: 10_000,
            interval: 50,
          });
          expect((await row()).outcome.error).toMatch(
            /^lost: its owner process \d+ on elsewhere\.example is gone \(its connection to the database dropped\)$/,
          );
          expect((await call(watcher.client, "subagents", {})).recent).toMatchObject([
            { runId: spawned.runId, status: "lost" },
          ]);
        } finally {
          await db.end();
        }
      } finally {
        answer({ text: "too late" });
        await admin.end();
        await model.close();
      }
    }, 90_000);
  },
);
