import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterEach } from "vitest";
import { createSessionsPlugin, type SessionsPluginOptions } from "../src/index.js";
import { createScriptedRunner } from "../src/testing.js";

// node itself runs the holder (tsx as a loader, not its CLI's wrapper process), so its pid is the holder's
const SESSIONS = path.join(import.meta.dirname, "..");
const HOLDER = path.join(import.meta.dirname, "fixtures", "run-holder.ts");
const json = (r: AgentToolResult<unknown>) => JSON.parse((r.content[0] as { text: string }).text);
const holders: ChildProcess[] = [];
afterEach(() => {
  for (const h of holders.splice(0)) if (h.exitCode === null && h.signalCode === null) h.kill("SIGKILL");
});

/**
 * A real process that spawns `count` never-ending children of agent:main:main; resolves once they
 * run. `aborted(runId)` resolves when that process reports one of its runs aborted.
 */
export async function holder(stateDir: string, workspaceDir: string, count: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=@clawtools/source", HOLDER, stateDir, workspaceDir, String(count)],
    { cwd: SESSIONS, stdio: ["ignore", "pipe", "pipe"] },
  );
  holders.push(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => {
    err += String(d);
  });
  child.stdout!.on("data", (d) => {
    out += String(d);
  });
  const line = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const found = pattern.exec(out);
        if (!found) return false;
        child.stdout!.off("data", look);
        resolve(found);
        return true;
      };
      if (look()) return;
      child.stdout!.on("data", look);
      child.once("exit", (code) => reject(new Error(`holder exited ${code}: ${err}`)));
    });
  const runIds = (await line(/^ready (.*)$/m))[1]!.split(" ");
  const killed = () =>
    new Promise<void>((resolve) => {
      child.on("exit", () => resolve());
      child.kill("SIGKILL");
    });
  const aborted = async (runId: string) => {
    await line(new RegExp(`^aborted ${runId}$`, "m"));
  };
  const steered = async (runId: string, message: string) => {
    await line(new RegExp(`^steered ${runId} ${message}$`, "m"));
  };
  return { pid: child.pid!, runIds, killed, aborted, steered, alive: () => child.exitCode === null };
}

/** This process's sessions on the same state directory (a restarted server, or a second one). */
export function server(stateDir: string, workspaceDir: string, options: SessionsPluginOptions = {}) {
  const plugin = createSessionsPlugin({
    ...options,
    runner: ({ store }) =>
      createScriptedRunner({ store, script: () => "fresh", newRunId: () => `fresh-${randomUUID()}` }),
  });
  const set = createToolset({
    plugins: [plugin],
    context: { stateDir, workspaceDir, agentId: "main", sessionKey: "main" },
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    json(await set.tools.find((t) => t.name === name)!.execute("c", args));
  const service = plugin.serviceFor({ stateDir, workspaceDir });
  return { call, service, close: () => set.dispose() };
}
