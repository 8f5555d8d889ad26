import { type ChildProcess, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A throwaway PostgreSQL cluster for the tests: initdb in a temp dir, the server on a free
 * loopback port with its socket in that dir, stopped and deleted by `stop()`. PostgreSQL will not
 * run as root, so as root both run as `nobody`.
 */
/** Debian's server binaries: 15 (bookworm) if there, else the newest installed version. */
function findBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const pick = versions.includes("15") ? "15" : versions[0];
  return pick ? path.join(root, pick, "bin") : path.join(root, "15", "bin");
}

export const PG_BIN = process.env.CLAWTOOLS_PG_BIN ?? findBin();
export const HAVE_POSTGRES =
  existsSync(path.join(PG_BIN, "initdb")) && existsSync(path.join(PG_BIN, "postgres"));
export const SKIP_REASON = `no PostgreSQL server binaries in ${PG_BIN} (install Debian's postgresql, or set CLAWTOOLS_PG_BIN)`;

const NOBODY = 65534;

export interface Cluster {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function asUser() {
  return process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...asUser(),
      stdio: ["ignore", "ignore", "pipe"],
      env: { PATH: process.env.PATH, LANG: "C" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    // 'close', not 'exit': the stderr quoted on failure may still be in the pipe at exit
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${stderr}`)),
    );
  });
}

/**
 * Until the server answers on its own socket directory (never another cluster that holds the
 * TCP port); false when it exited first (`exited` holds its log then).
 */
async function waitReady(socketDir: string, port: number, server: ChildProcess): Promise<boolean> {
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) return false;
    const client = new pg.Client({
      host: socketDir,
      port,
      user: "postgres",
      database: "postgres",
      connectionTimeoutMillis: 2_000,
    });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      await client.end().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** `statements`: the server loads pg_stat_statements (the bench counts statements per fire with it). */
export async function startCluster(options: { statements?: boolean } = {}): Promise<Cluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-pg-"));
  const data = path.join(dir, "data");
  if (process.getuid?.() === 0) chownSync(dir, NOBODY, NOBODY);
  await run(path.join(PG_BIN, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  // The port is free when picked, but taken again only when postgres binds it, seconds later on
  // a loaded machine: another process may take it meanwhile (Node 20 and Node 24 test runs start
  // clusters side by side). postgres then exits (it listens on 127.0.0.1 only), and the start is
  // tried again on another port; readiness is checked on this cluster's own socket directory.
  let failures = "";
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const started = await startOn(dir, data, port, options.statements === true);
    if (started.ok) return started.cluster;
    failures += `\n--- port ${port}:\n${started.log}`;
    if (
      attempt === 5 ||
      !/already in use|could not bind|could not create any TCP\/IP sockets/i.test(started.log)
    ) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`postgres did not start:${failures}`);
    }
  }
}

async function startOn(
  dir: string,
  data: string,
  port: number,
  statements: boolean,
): Promise<{ ok: true; cluster: Cluster } | { ok: false; log: string }> {
  const server = spawn(
    path.join(PG_BIN, "postgres"),
    // fsync off: a test cluster is thrown away, and the disk is shared with seven other jobs
    [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "max_connections=200",
      ...(statements ? ["-c", "shared_preload_libraries=pg_stat_statements"] : []),
    ],
    { ...asUser(), stdio: ["ignore", "ignore", "pipe"], env: { PATH: process.env.PATH, LANG: "C" } },
  );
  let log = "";
  server.stderr?.on("data", (chunk) => {
    log = (log + chunk).slice(-4_000);
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  // its whole log: 'close' comes once the pipe has given up everything it wrote
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  let ready: boolean;
  try {
    ready = await waitReady(dir, port, server);
  } catch (error) {
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  if (!ready) {
    await closed;
    return { ok: false, log };
  }
  return {
    ok: true,
    cluster: {
      url,
      async stop() {
        // SIGTERM first: PostgreSQL's smart shutdown waits for the sessions still closing (a pool's
        // end() resolves before its sockets are gone; a fast shutdown would hand those clients an
        // admin-shutdown error with no listener left); SIGINT (fast) if one never ends.
        if (server.exitCode === null) server.kill("SIGTERM");
        const fast = setTimeout(() => server.exitCode === null && server.kill("SIGINT"), 10_000);
        await exited;
        clearTimeout(fast);
        rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}
