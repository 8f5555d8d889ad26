import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
// tsx (a dev dependency of this package) runs the "server" from source
const TSX = createRequire(path.join(ROOT, "packages/core/package.json")).resolve("tsx");
const MODULE = pathToFileURL(path.join(import.meta.dirname, "group-reaper.ts")).href;

/** Alive and not a zombie (a killed orphan may wait a moment to be reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

// a process start under tsx, or a group's end, can take 10 s and more on a loaded CI machine
async function gone(pids: number[], timeoutMs = 30_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (pids.every((pid) => !alive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pids.every((pid) => !alive(pid));
}

const servers: ChildProcess[] = [];
const leftovers: number[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.kill("SIGKILL");
  for (const pid of leftovers.splice(0))
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
});

/** Starts a node "server" running `body` (ESM, with superviseProcessGroup imported); its first stdout line as JSON. */
async function startServer(body: string): Promise<{ server: ChildProcess; report: Record<string, unknown> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-reaper-"));
  const file = path.join(dir, "server.mjs");
  writeFileSync(
    file,
    `import { spawn } from "node:child_process";\nimport { superviseProcessGroup, supervisedProcessGroups, processGroupReaperPid } from ${JSON.stringify(MODULE)};\n${body}\nsetInterval(() => {}, 60_000);\n`,
  );
  const server = spawn(process.execPath, ["--import", pathToFileURL(TSX).href, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  servers.push(server);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once("line", resolve);
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const report = JSON.parse(line) as Record<string, unknown>;
  for (const value of Object.values(report)) if (typeof value === "number") leftovers.push(value);
  return { server, report };
}

describe("superviseProcessGroup", () => {
  it("kills a supervised group, grandchildren included, when its server is killed with SIGKILL", async () => {
    const { server, report } = await startServer(`
      const child = spawn("/bin/sh", ["-c", "sleep 300 & echo $!; wait"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
      superviseProcessGroup(child.pid);
      child.stdout.once("data", (d) => console.log(JSON.stringify({ leader: child.pid, grandchild: Number(String(d).trim()), reaper: processGroupReaperPid() })));
    `);
    const pids = [report.leader as number, report.grandchild as number];
    expect(pids.every(alive)).toBe(true);
    server.kill("SIGKILL");
    expect(await gone(pids)).toBe(true);
    // its work done, the reaper itself is gone too
    expect(await gone([report.reaper as number])).toBe(true);
  }, 90_000);

  it("keeps watching a released group while members are left, and forgets an empty one", async () => {
    const { server, report } = await startServer(`
      const left = spawn("/bin/sh", ["-c", "sleep 300 >/dev/null 2>&1 & echo $!"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
      const releaseLeft = superviseProcessGroup(left.pid);
      let grandchild;
      left.stdout.once("data", (d) => { grandchild = Number(String(d).trim()); });
      left.once("close", () => {
        releaseLeft();
        const empty = spawn("/bin/sh", ["-c", "true"], { detached: true, stdio: "ignore" });
        const releaseEmpty = superviseProcessGroup(empty.pid);
        empty.once("exit", () => {
          releaseEmpty();
          console.log(JSON.stringify({ grandchild, left: left.pid, empty: empty.pid, watched: supervisedProcessGroups().join(",") }));
        });
      });
    `);
    // the leader of "left" exited; its background sleep keeps the group watched
    expect(report.watched).toBe(String(report.left));
    expect(alive(report.grandchild as number)).toBe(true);
    server.kill("SIGKILL");
    expect(await gone([report.grandchild as number])).toBe(true);
  }, 90_000);

  it("kills the groups when the server exits normally, and ignores ids it must never signal", async () => {
    const { server, report } = await startServer(`
      const child = spawn("/bin/sh", ["-c", "sleep 300 & echo $!; wait"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
      superviseProcessGroup(child.pid);
      superviseProcessGroup(0); superviseProcessGroup(1); superviseProcessGroup(-5); superviseProcessGroup(1.5);
      child.stdout.once("data", (d) => {
        console.log(JSON.stringify({ grandchild: Number(String(d).trim()), watched: supervisedProcessGroups().join(",") }));
        setTimeout(() => process.exit(0), 10);
      });
    `);
    expect(report.watched).not.toContain(",");
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once("exit", resolve)));
    expect(await gone([report.grandchild as number])).toBe(true);
  }, 90_000);
});
