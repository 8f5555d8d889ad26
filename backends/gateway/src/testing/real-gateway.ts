import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { delay, systemClock } from "@clawtools/core/time";
import { GatewayClient } from "../client.js";
import type { OpenclawInstall } from "./openclaw-install.js";

/** A free loopback port (bound, read, released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An OpenClaw process in its own process group, its output kept for failure messages. */
export interface OpenclawProcess {
  child: ChildProcess;
  output(): string;
  /** Ends the whole process group (SIGTERM, then SIGKILL) and waits for the exit. */
  stop(): Promise<void>;
}

function startOpenclaw(
  install: OpenclawInstall,
  args: string[],
  home: string,
  env: Record<string, string> = {},
): OpenclawProcess {
  const child = spawn(install.node, [install.entry, ...args], {
    cwd: home,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: `${path.dirname(install.node)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      OPENCLAW_STATE_DIR: path.join(home, "state"),
      NO_COLOR: "1",
      ...env,
    },
  });
  let out = "";
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const group = (signal: NodeJS.Signals) => {
        try {
          process.kill(-(child.pid as number), signal);
        } catch {
          // the group is gone already
        }
      };
      group("SIGTERM");
      const killer = systemClock.setTimeout(() => group("SIGKILL"), 10_000);
      await exited;
      systemClock.clearTimeout(killer);
      group("SIGKILL");
    },
  };
}

export interface RealGateway {
  url: string;
  token: string;
  port: number;
  home: string;
  process: OpenclawProcess;
  /** Starts `openclaw node run` against this Gateway, with a HOME of its own. */
  startNode(displayName: string): Promise<OpenclawProcess>;
  stop(): Promise<void>;
}

/**
 * Boots `openclaw gateway run --allow-unconfigured --auth token --bind loopback` with HOME and
 * OPENCLAW_STATE_DIR in a temp dir, and waits until a client completes the handshake (boots
 * take 12-30 s, longer on a loaded machine).
 */
export async function startRealGateway(
  install: OpenclawInstall,
  options: {
    readyTimeoutMs?: number;
    /** OpenClaw's config (openclaw.json), e.g. `models.providers` for a loopback model. */
    config?: Record<string, unknown>;
  } = {},
): Promise<RealGateway> {
  const home = mkdtempSync(path.join(tmpdir(), "clawtools-openclaw-"));
  const token = randomBytes(16).toString("hex");
  const port = await freePort();
  const env: Record<string, string> = {};
  if (options.config) {
    const configPath = path.join(home, "state", "openclaw.json");
    mkdirSync(path.dirname(configPath), { recursive: true });
    writeFileSync(configPath, JSON.stringify(options.config, null, 2), { mode: 0o600 });
    env.OPENCLAW_CONFIG_PATH = configPath;
  }
  const gateway = startOpenclaw(
    install,
    [
      "gateway",
      "run",
      "--allow-unconfigured",
      "--auth",
      "token",
      "--token",
      token,
      "--port",
      String(port),
      "--bind",
      "loopback",
    ],
    home,
    env,
  );
  const nodes: OpenclawProcess[] = [];
  const url = `ws://127.0.0.1:${port}`;
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await gateway.stop();
    rmSync(home, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 150_000);
  for (;;) {
    if (gateway.child.exitCode !== null) {
      await stop();
      throw new Error(
        `openclaw gateway exited (${gateway.child.exitCode}) before it was ready:\n${gateway.output()}`,
      );
    }
    const probe = new GatewayClient({ url, token, reconnect: false, connectTimeoutMs: 10_000 });
    try {
      await probe.connect();
      await probe.close();
      break;
    } catch {
      await probe.close();
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`openclaw gateway was not ready at ${url} in time:\n${gateway.output()}`);
      }
      await delay(500);
    }
  }
  return {
    url,
    token,
    port,
    home,
    process: gateway,
    startNode: async (displayName) => {
      const nodeHome = mkdtempSync(path.join(home, "node-"));
      const node = startOpenclaw(
        install,
        [
          "node",
          "run",
          "--host",
          "127.0.0.1",
          "--port",
          String(port),
          "--no-tls",
          "--display-name",
          displayName,
        ],
        nodeHome,
        { OPENCLAW_GATEWAY_TOKEN: token },
      );
      nodes.push(node);
      return node;
    },
    stop,
  };
}
