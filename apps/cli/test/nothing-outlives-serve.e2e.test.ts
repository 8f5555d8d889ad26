import { readdirSync, readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contentText, startModelServer } from "../../../adapters/runner-pi/test/model-server.js";
import { json, requireBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// Issue 37 #11: nothing serve starts outlives it, kill -9 included, every time. Each round starts
// a serve, has it start one process (exec `sleep` called directly, exec called by a sub-agent, or
// the ACP harness of a runtime=acp spawn), kills serve with SIGKILL the moment that process shows
// up in /proc (the moment a loaded machine's scheduler can pick), and checks it is gone after.
// Repeated: the process used to be visible before serve had tied its group to the reaper.

const ROUNDS = 9;
const WAYS = ["exec", "sub-agent exec", "ACP harness"] as const;

/** Pids of live (not zombie) processes whose command line holds `marker`. */
function withMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, "latin1").includes(marker)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (stat[stat.lastIndexOf(")") + 2] !== "Z") found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls /proc (with no pause between looks) until a process with `marker` is up. */
async function firstSeen(marker: string, deadline = Date.now() + 30_000): Promise<number[]> {
  for (;;) {
    const pids = withMarker(marker);
    if (pids.length > 0 || Date.now() > deadline) return pids;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Waits (bounded: a tree's end takes seconds on a loaded CI machine) until no process with `marker` is left; returns the ones left. */
async function gone(marker: string, deadline = Date.now() + 30_000): Promise<number[]> {
  for (;;) {
    const pids = withMarker(marker);
    if (pids.length === 0 || Date.now() > deadline) return pids;
    await pause(50);
  }
}

let model: Awaited<ReturnType<typeof startModelServer>>;
const leftovers: number[] = [];

beforeAll(async () => {
  requireBuilt();
  // a sub-agent's model: a task RUN<command> runs the command through exec
  model = await startModelServer((request) => {
    const last = request.messages.at(-1)!;
    const run = /RUN<(.+?)>/.exec(contentText(last.content));
    return last.role === "user" && run
      ? { toolCall: { name: "exec", arguments: { command: run[1]! } } }
      : { text: "done" };
  });
});

afterAll(async () => {
  for (const pid of leftovers)
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  await Promise.race([model?.close(), pause(1000)]);
});

it("kill -9 of serve, the moment its process shows up, leaves nothing running, round after round", async () => {
  const survived: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const way = WAYS[round % WAYS.length]!;
    const dir = mkdtempSync(path.join(tmpdir(), "cli-outlive-"));
    // a duration no other process has: its command line is the marker
    const marker = `300.${process.pid}${round}1`;
    const config = path.join(dir, "clawtools.json");
    writeFileSync(
      config,
      JSON.stringify({ acp: { command: "/bin/sh", args: ["-c", `exec sleep ${marker}`] } }),
    );
    const { client, transport } = await connectCli(
      [
        "serve",
        ...["--workspace", dir, "--state-dir", path.join(dir, ".state"), "--config", config],
        ...["--profile", "full", "--owner", "--model", "openai/scripted"],
      ],
      { env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-loopback" }, stderr: "ignore" },
    );
    const pid = transport.pid!;
    leftovers.push(pid);
    const call =
      way === "exec"
        ? client.callTool({ name: "exec", arguments: { command: `sleep ${marker}`, background: true } })
        : client.callTool({
            name: "sessions_spawn",
            arguments:
              way === "ACP harness"
                ? { task: "hello", runtime: "acp", label: `acp-${round}` }
                : { task: `RUN<sleep ${marker}>`, label: `child-${round}` },
          });
    const answered = call.then(json).catch(() => undefined);
    const seen = await firstSeen(marker);
    process.kill(pid, "SIGKILL");
    expect(seen.length, `${way}: the process never started`).toBeGreaterThan(0);
    leftovers.push(...seen);
    await answered;
    const left = await gone(marker);
    leftovers.push(...left);
    if (left.length > 0) survived.push(`round ${round} (${way}): ${left.join(", ")} still running`);
  }
  expect(survived).toEqual([]);
}, 120_000);
