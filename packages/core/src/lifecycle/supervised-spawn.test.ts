import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { spawnSupervised } from "./supervised-spawn.js";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const TSX = createRequire(path.join(ROOT, "packages/core/package.json")).resolve("tsx");
const MODULE = pathToFileURL(path.join(import.meta.dirname, "supervised-spawn.ts")).href;
const SUPPORTED = process.platform !== "win32";

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

// a process start under tsx, or a group's end, can take 10 s and more on a loaded CI machine
async function gone(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  return !alive(pid);
}

const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0))
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
});

/** Runs `body` in a node "server" (spawnSupervised imported); its first stdout line, and the server. */
async function server(body: string): Promise<{ line: string; server: ChildProcess }> {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-gate-"));
  const file = path.join(dir, "server.mjs");
  writeFileSync(file, `import { spawnSupervised } from ${JSON.stringify(MODULE)};\n${body}\n`);
  const child = spawn(process.execPath, ["--import", pathToFileURL(TSX).href, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { line, server: child };
}

describe.runIf(SUPPORTED)("spawnSupervised", () => {
  it("runs the command as given: arguments, environment, cwd, stdin, output and exit code", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-gate-"));
    const { child } = spawnSupervised(
      "/bin/sh",
      ["-c", 'read -r line; printf "%s|%s|%s|%s" "$1" "$line" "$GREETING" "$(pwd)"; exit 3', "sh", "a b"],
      { cwd: dir, env: { GREETING: "hi", PATH: process.env.PATH ?? "" }, stdio: ["pipe", "pipe", "pipe"] },
    );
    leftovers.push(child.pid!);
    child.stdin!.end("typed\n");
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
    });
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(out).toBe(`a b|typed|hi|${dir}`);
    expect(code).toBe(3);
  });

  it("a program that cannot be found fails as spawn reports it, and nothing starts", async () => {
    const { child } = spawnSupervised("/nonexistent/agent", [], { stdio: ["pipe", "pipe", "pipe"] });
    const error = await new Promise<Error>((resolve) => child.once("error", resolve));
    expect(error.message).toBe("spawn /nonexistent/agent ENOENT");
  });

  it("a server killed in the tick of the spawn: the command never runs, nothing is left", async () => {
    // SIGKILL before the gate is opened: without the gate the command would run at once
    const ran = path.join(mkdtempSync(path.join(tmpdir(), "clawtools-gate-")), "ran");
    const { line, server: s } = await server(
      `const { child } = spawnSupervised("/bin/sh", ["-c", ${JSON.stringify(`touch ${ran}; sleep 300`)}], { stdio: ["ignore", "ignore", "ignore"] });
console.log(child.pid);
process.kill(process.pid, "SIGKILL");`,
    );
    const pid = Number(line);
    leftovers.push(pid);
    await new Promise((resolve) => s.once("exit", resolve));
    expect(await gone(pid)).toBe(true);
    expect(existsSync(ran)).toBe(false);
  }, 90_000);

  it("a server killed once the command runs takes its whole group along", async () => {
    const { line, server: s } = await server(
      `const { child } = spawnSupervised("/bin/sh", ["-c", "sleep 300 & echo $!; wait"], { stdio: ["ignore", "pipe", "ignore"] });
child.stdout.once("data", (d) => console.log(JSON.stringify([child.pid, Number(String(d).trim())])));
setInterval(() => {}, 60_000);`,
    );
    const pids = JSON.parse(line) as number[];
    leftovers.push(pids[0]!);
    expect(pids.every(alive)).toBe(true);
    s.kill("SIGKILL");
    for (const pid of pids) expect(await gone(pid)).toBe(true);
  }, 90_000);
});
