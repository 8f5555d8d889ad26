import { spawn } from "node:child_process";
import { EventEmitter, once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
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

// Two real `clawtools serve` processes, each with its own state directory, on one PostgreSQL
// database (a throwaway cluster started once for the file): they share sessions and cron jobs,
// fire each due job exactly once between them, and when one is killed the other takes over.
// pg is the store's dependency, not the CLI's: the admin connection borrows the store's copy
interface PgClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}
const pg = createRequire(new URL("../../../backends/store-postgres/package.json", import.meta.url))("pg") as {
  Client: new (config: { connectionString: string }) => PgClient;
};

type Call = (name: string, args: Record<string, unknown>) => Promise<any>;
interface Serve {
  call: Call;
  pid: number;
  stderr: () => string;
  client: Client;
}

/** A loopback webhook target counting every POST, by job id. */
interface Hooks {
  url: string;
  hits: Array<{ jobId: string; runAtMs: number }>;
  events: EventEmitter;
  server: Server;
}

function startHooks(): Promise<Hooks> {
  const hits: Hooks["hits"] = [];
  const events = new EventEmitter();
  const server = createHttpServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      hits.push(JSON.parse(body));
      res.writeHead(204).end();
      events.emit("hit");
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}/hook`, hits, events, server });
    }),
  );
}

/** Resolves once `hooks` has seen `n` hits (an event, never a sleep). */
async function hitsReach(hooks: Hooks, n: number): Promise<void> {
  while (hooks.hits.length < n) await once(hooks.events, "hit");
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
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

const clients: Client[] = [];

async function serve(
  workspace: string,
  name: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Serve> {
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
      ...args,
    ],
    { env, name: `e2e-${name}` },
  );
  clients.push(client);
  const call: Call = async (tool, toolArgs) => {
    const result = await client.callTool({ name: tool, arguments: toolArgs });
    if (result.isError) throw new Error(`${tool} failed: ${text(result)}`);
    return JSON.parse(text(result));
  };
  return { call, pid: transport.pid as number, stderr, client };
}

const job = (name: string, hooks: Hooks, atMs: number) => ({
  name,
  schedule: { kind: "at", at: new Date(atMs).toISOString() },
  sessionTarget: "main",
  deleteAfterRun: false,
  payload: { kind: "systemEvent", text: `fired ${name}` },
  delivery: { mode: "webhook", to: hooks.url },
});

describe.skipIf(!HAVE_POSTGRES)(
  HAVE_POSTGRES ? "serve --store postgres://…" : `serve --store postgres://… (skipped: ${SKIP_REASON})`,
  () => {
    let cluster: Cluster;
    let admin: PgClient;
    let hooks: Hooks;
    let workspace: string;
    let databases = 0;

    /** A fresh database on the cluster (each test its own), its URL with `password` in it. */
    const database = async (password?: string) => {
      const name = `serve_${++databases}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      if (password) url.password = password;
      return url.toString();
    };
    const config = (extra: Record<string, unknown> = {}) => {
      const file = path.join(workspace, `config-${++databases}.json`);
      writeFileSync(
        file,
        JSON.stringify({ automation: { webhook: { allowPrivateNetwork: true, attempts: 1 } }, ...extra }),
      );
      return file;
    };

    beforeAll(async () => {
      requireBuilt();
      cluster = await startCluster();
      admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      hooks = await startHooks();
      workspace = mkdtempSync(path.join(tmpdir(), "cli-store-"));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      hooks?.server.close();
      await admin?.end();
      await cluster?.stop();
    }, 60_000);

    it("two serves with different state directories share jobs and sessions, and fire each due job exactly once", async () => {
      const url = await database("hunter2");
      // one names the store in its config file, the other with the flag
      const a = await serve(workspace, "a", ["--config", config({ store: url })]);
      const b = await serve(workspace, "b", ["--config", config(), "--store", url]);
      const location = `${url.replace(":hunter2@", "@")}#clawtools`;
      for (const s of [a, b]) {
        await vi.waitFor(() => expect(s.stderr()).toContain("state: "), { timeout: 30_000 });
        expect(s.stderr()).toContain(`state: sessions, runs and cron jobs in PostgreSQL store ${location}\n`);
        expect(s.stderr()).not.toContain("hunter2");
      }
      expect((await a.call("cron", { action: "status" })).storePath).toBe(location);

      // jobs made through A, due together in a moment: B lists them (paged from the database)
      const due = Date.now() + 1_500;
      const ids: string[] = [];
      for (const name of ["one", "two", "three", "four"])
        ids.push((await a.call("cron", { action: "add", job: job(name, hooks, due) })).id);
      const listed = await b.call("cron", { action: "list", limit: 2, offset: 1, includeDisabled: true });
      expect(listed.total).toBe(4);
      expect(listed.jobs).toHaveLength(2);

      await hitsReach(hooks, 4);
      // each job ran once, and is off now (a one-shot kept after its run): it can never fire again
      for (const id of ids) {
        await vi.waitFor(
          async () => {
            const [found] = (await b.call("cron", { action: "list", includeDisabled: true })).jobs.filter(
              (j: { id: string }) => j.id === id,
            );
            expect(found).toMatchObject({ enabled: false, lastRunStatus: "ok" });
          },
          { timeout: 30_000, interval: 100 },
        );
        expect((await a.call("cron", { action: "runs", jobId: id })).total).toBe(1);
      }
      expect(hooks.hits.map((h) => h.jobId).sort()).toEqual([...ids].sort());

      // the system events landed in one shared main session: each serve reads all four
      for (const s of [a, b]) {
        const history = await s.call("sessions_history", { sessionKey: "main" });
        expect(history.messages.map((m: { content: unknown }) => String(m.content)).sort()).toEqual(
          ["fired four", "fired one", "fired three", "fired two"].map((t) => `System: ${t}`),
        );
      }
      hooks.hits.length = 0;
    }, 120_000);

    it("with --model on both: a sub-agent spawned through one serve is a session and a run the other sees", async () => {
      const url = await database();
      const model = await startModelServer(() => ({ text: "Counted 3 apples." }));
      try {
        const env = { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-loopback" };
        const args = ["--store", url, "--model", "openai/scripted"];
        const a = await serve(workspace, "e", args, env);
        const b = await serve(workspace, "f", args, env);
        const spawned = await a.call("sessions_spawn", { task: "count the apples", label: "counter" });
        expect(spawned.status).toBe("accepted");
        // B reads the run from the shared registry: it ends there, done, announce delivered
        await vi.waitFor(
          async () =>
            expect((await b.call("subagents", {})).recent[0]).toMatchObject({
              label: "counter",
              status: "done",
              announce: "delivered",
            }),
          { timeout: 60_000, interval: 100 },
        );
        const listed = (await b.call("sessions_list", {})).sessions.map((e: { key: string }) => e.key);
        expect(listed).toContain(spawned.childSessionKey);
        const child = await b.call("sessions_history", { sessionKey: spawned.childSessionKey });
        // the child's reply, as its runner stored it (content parts)
        expect(JSON.stringify(child.messages)).toContain("Counted 3 apples.");
        // the announce landed in the shared main session, read through the serve that spawned
        expect(JSON.stringify((await a.call("sessions_history", { sessionKey: "main" })).messages)).toContain(
          "Counted 3 apples.",
        );
      } finally {
        await model.close();
      }
    }, 120_000);

    it("kill -9 of the serve that schedules: the other takes its due jobs over within a lease", async () => {
      const url = await database();
      const file = config({ store: url });
      const a = await serve(workspace, "c", ["--config", file]);
      // A holds the cron leader lease before B starts (the lease row is the event)
      const leaseOwner = async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query("SELECT owner FROM clawtools.leases WHERE name = 'cron'")).rows[0]
            ?.owner as string | undefined;
        } finally {
          await client.end();
        }
      };
      await vi.waitFor(async () => expect(await leaseOwner()).toBeDefined(), {
        timeout: 30_000,
        interval: 100,
      });
      const first = await leaseOwner();
      const b = await serve(workspace, "d", ["--store", url, "--config", config()]);
      await vi.waitFor(() => expect(b.stderr()).toContain("state: "), { timeout: 30_000 });

      // A's job, due in a moment; A dies before then: only B is left to fire it, once A's lease has run out
      const added = await a.call("cron", {
        action: "add",
        job: job("after-crash", hooks, Date.now() + 3_000),
      });
      process.kill(a.pid, "SIGKILL");
      await hitsReach(hooks, 1);
      expect(hooks.hits.map((h) => h.jobId)).toEqual([added.id]);
      // Any serve claims due jobs, so B may fire before it holds the lease; and the run is
      // recorded after the webhook answered. Both are polled for, not read at the hit.
      await expect
        .poll(async () => (await leaseOwner()) ?? first, { timeout: 30_000, interval: 200 })
        .not.toBe(first);
      await expect
        .poll(async () => (await b.call("cron", { action: "runs", jobId: added.id })).entries, {
          timeout: 30_000,
          interval: 200,
        })
        .toMatchObject([{ status: "ok", deliveryStatus: "delivered" }]);
    }, 180_000);

    it("a database that cannot be reached fails the start, naming the store without its password; a URL that is not PostgreSQL is a usage error", async () => {
      const port = await closedPort();
      const down = await runCli(
        [
          "serve",
          "--state-dir",
          path.join(workspace, ".down"),
          "--store",
          `postgres://app:s3cret@127.0.0.1:${port}/jobs`,
        ],
        workspace,
      );
      expect(down.code).toBe(2);
      expect(down.stderr).toContain(
        `clawtools: PostgreSQL store postgres://app@127.0.0.1:${port}/jobs#clawtools: cannot open it: connect ECONNREFUSED`,
      );
      expect(down.stderr).not.toContain("s3cret");
      expect(down.stderr).not.toContain("    at ");

      // a server that takes the connection and never answers (a firewall, a hung host): the
      // bounded connect timeout ends the start
      const silent = createServer(() => {});
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const silentPort = (silent.address() as { port: number }).port;
      const hung = await runCli(
        [
          "serve",
          "--state-dir",
          path.join(workspace, ".hung"),
          "--store",
          `postgres://app@127.0.0.1:${silentPort}/jobs`,
        ],
        workspace,
      ).finally(() => silent.close());
      expect(hung.code).toBe(2);
      expect(hung.stderr).toContain(
        `clawtools: PostgreSQL store postgres://app@127.0.0.1:${silentPort}/jobs#clawtools: cannot open it: Connection terminated due to connection timeout`,
      );

      const mysql = await runCli(["serve", "--store", "mysql://app:s3cret@db/jobs"], workspace);
      expect(mysql.code).toBe(2);
      expect(mysql.stderr).toBe(
        'clawtools: --store takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB (postgres:// or postgresql://), got "mysql://app@db/jobs" (see clawtools serve --help)\n',
      );
      const fromFile = await runCli(["serve", "--config", config({ store: 5432 })], workspace);
      expect(fromFile.code).toBe(2);
      expect(fromFile.stderr).toContain(
        ": store takes a PostgreSQL URL: postgres://USER@HOST:PORT/DB, got 5432",
      );
    }, 60_000);
  },
);
