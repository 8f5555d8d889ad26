import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import type { RunRegistry, SessionStore } from "./interfaces.js";
import type { LivenessOptions } from "./liveness.js";
import { createSessionsPlugin } from "./plugin.js";
import { createScriptedRunner } from "./scripted-runner.js";
import type { RunRecord } from "./types.js";

export interface LivenessHostOptions {
  /** This host's own instances of the shared stores (as a second process would open them). */
  store: SessionStore;
  runs: RunRegistry;
  /** Most running children per requester (default 3, what the conformance steps expect). */
  maxChildren?: number;
  /** Liveness periods (defaults: answer kill requests every 10 ms, wait up to 60 s for one). */
  liveness?: Omit<LivenessOptions, "owner">;
  /**
   * What else dies with the holder on `crash()`: for a registry that binds liveness to a
   * connection (PostgreSQL), cutting this host's connection, as a killed process's drops.
   */
  onCrash?: () => Promise<void>;
}

/** One host: the sessions section over the given stores, holding runs that end only when killed. */
export interface LivenessHost {
  sessions: SessionStore;
  runs: RunRegistry;
  requesterKey: string;
  spawn(task: string): Promise<{ status: string; runId?: string; error?: string }>;
  reapLost(): Promise<RunRecord[]>;
  kill(runId: string): Promise<{ status: string; text?: string }>;
  crash(): Promise<void>;
  close(): Promise<void>;
}

const parse = (r: AgentToolResult<unknown>) => JSON.parse((r.content[0] as { text: string }).text);

async function standIn(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30)"], { stdio: "ignore" });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/**
 * A host for `runLivenessConformance` (`@clawtools/testing`): the sessions service over `store`
 * and `runs`, recorded as held by a stand-in child process. `crash()` stops the service's
 * heartbeat and SIGKILLs the stand-in, so to every other host its runs' holder is gone, as after a
 * `kill -9` (checked by pid, with no clock involved; or by the registry's connection-bound
 * liveness, once `onCrash` cut the connection). Its runs never end on their own.
 */
export async function createLivenessHost(options: LivenessHostOptions): Promise<LivenessHost> {
  const child = await standIn();
  const workspaceDir = mkdtempSync(path.join(tmpdir(), "liveness-host-"));
  const plugin = createSessionsPlugin({
    store: options.store,
    runs: options.runs,
    maxChildrenPerAgent: options.maxChildren ?? 3,
    liveness: {
      abortCheckMs: 10,
      killWaitMs: 60_000,
      ...options.liveness,
      owner: { pid: child.pid as number, instance: randomUUID(), host: hostname() },
    },
    runner: ({ store }) =>
      createScriptedRunner({
        store,
        script: () => new Promise<string>(() => {}),
        newRunId: () => `held-${randomUUID()}`,
      }),
  });
  const context = { stateDir: workspaceDir, workspaceDir, agentId: "main", sessionKey: "main" };
  const set = createToolset({ plugins: [plugin], context, policy: { profile: "full" }, senderIsOwner: true });
  const service = plugin.serviceFor(context);
  const call = async (name: string, args: Record<string, unknown>) => {
    const tool = set.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`liveness host: no ${name} tool (${JSON.stringify(set.diagnostics)})`);
    return parse(await tool.execute("liveness", args));
  };
  return {
    sessions: options.store,
    runs: options.runs,
    requesterKey: "agent:main:main",
    spawn: (task) => call("sessions_spawn", { task }),
    reapLost: () => service.reapLost(),
    kill: (runId) => call("subagents", { action: "kill", target: runId }),
    async crash() {
      service.close();
      await stop(child);
      await options.onCrash?.();
    },
    async close() {
      service.close();
      await set.dispose();
      await stop(child);
    },
  };
}
