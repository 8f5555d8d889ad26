import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
// tsx (a dev dependency of this package) runs the "server" from source
const TSX = pathToFileURL(createRequire(path.join(ROOT, "plugins/runtime/package.json")).resolve("tsx")).href;
const RUNTIME = pathToFileURL(path.join(import.meta.dirname, "../src/index.ts")).href;

/** Alive and not a zombie (a killed orphan may wait a moment to be reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Waits (bounded) until every pid is gone (a group's end can take seconds on a loaded CI machine). */
async function gone(pids: number[], timeoutMs = 30_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (pids.every((pid) => !alive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pids.every((pid) => !alive(pid));
}

const servers: ChildProcess[] = [];
const started: number[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.kill("SIGKILL");
  for (const pid of started.splice(0))
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
});

/** A node "server" running the runtime section from source; `body` prints one JSON line of pids. */
async function startServer(body: string): Promise<{ server: ChildProcess; pids: number[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-lifetime-"));
  const file = path.join(dir, "server.mjs");
  writeFileSync(
    file,
    `import { createExecTool, ProcessRegistry } from ${JSON.stringify(RUNTIME)};
const registry = new ProcessRegistry();
const exec = createExecTool({ workspaceDir: ${JSON.stringify(dir)}, sessionKey: "s" }, { registry });
const text = (r) => r.content.map((c) => c.text).join("");
${body}
setInterval(() => {}, 60_000);
`,
  );
  const server = spawn(process.execPath, ["--conditions=@clawtools/source", "--import", TSX, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  servers.push(server);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once("line", resolve);
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const pids = (JSON.parse(line) as number[]).filter((pid) => pid > 1);
  started.push(...pids);
  return { server, pids };
}

describe("nothing exec starts outlives the server", () => {
  it("kill -9 of the server takes background sessions, their grandchildren and leftover jobs with it", async () => {
    const { server, pids } = await startServer(`
// a background session whose shell started a grandchild
const bg = await exec.execute("c", { command: "sleep 300 & echo $!; wait", background: true });
const session = registry.get("s", bg.details.sessionId);
await new Promise((resolve) => session.onData(resolve));
const grandchild = Number(session.tail.trim());
// a foreground run that ended and left a job behind (its group stays supervised)
const left = await exec.execute("c", { command: "sleep 300 >/dev/null 2>&1 & echo $!" });
// a PTY session
const pty = await exec.execute("c", { command: "sleep 300", pty: true, background: true });
console.log(JSON.stringify([bg.details.pid, grandchild, Number(text(left)), pty.details.pid]));
`);
    expect(pids).toHaveLength(4);
    expect(pids.every(alive)).toBe(true);
    server.kill("SIGKILL");
    expect(await gone(pids)).toBe(true);
  }, 60_000);

  it("SIGTERM of a server that disposes the registry still kills every group", async () => {
    const { server, pids } = await startServer(`
process.once("SIGTERM", () => registry.dispose().then(() => process.exit(0)));
const bg = await exec.execute("c", { command: "sleep 300 & echo $!; wait", background: true });
const session = registry.get("s", bg.details.sessionId);
await new Promise((resolve) => session.onData(resolve));
console.log(JSON.stringify([bg.details.pid, Number(session.tail.trim())]));
`);
    server.kill("SIGTERM");
    expect(await gone(pids)).toBe(true);
  }, 60_000);
});
