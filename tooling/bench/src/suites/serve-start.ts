/**
 * `clawtools serve` start-up against its floor: a bare Node process answering the same JSON-RPC
 * (initialize, tools/list) over stdio, spawned in turns with serve under each profile in the
 * same run; and the idle RSS of `serve --profile full` against that bare process's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchRow, type BenchSuite, timeInTurns } from "../harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const bin = path.join(root, "apps", "cli", "dist", "bin.js");

// the floor: what any stdio JSON-RPC server costs (Node's start, a line reader, JSON)
const BARE = `
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const result = m.method === "initialize"
    ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "bare", version: "0" } }
    : { tools: [] };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
});
rl.on("close", () => process.exit(0));
`;

const HELLO = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join("");

type Answer = { id?: number; result?: { tools?: unknown[]; isError?: boolean }; error?: { message: string } };

/** Spawns `args`, sends initialize + tools/list, resolves when tools/list is answered. */
function untilListed(
  args: string[],
): Promise<{ child: ChildProcess; tools: number; answer: (id: number) => Promise<Answer> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    const waiting = new Map<number, (answer: Answer) => void>();
    const answer = (id: number) => new Promise<Answer>((r) => waiting.set(id, r));
    let buffer = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before tools/list`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, end)) as Answer;
        buffer = buffer.slice(end + 1);
        if (message.id === 2) resolve({ child, tools: message.result?.tools?.length ?? 0, answer });
        else if (message.id !== undefined) waiting.get(message.id)?.(message);
      }
    });
    child.stdin!.write(HELLO);
  });
}

const settle = () => new Promise((r) => setTimeout(r, 1000));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners("exit");
  const exited = new Promise((r) => child.once("exit", r));
  child.stdin!.end();
  await exited;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

export default {
  name: "serve-start",
  async run() {
    const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-bench-serve-"));
    const bare = path.join(workspace, "..", `${path.basename(workspace)}-bare.cjs`);
    writeFileSync(bare, BARE);
    const profiles = ["minimal", "coding", "full"] as const;
    const serveArgs = (profile: string) => [bin, "serve", "--profile", profile, "--workspace", workspace];
    const variant = (args: string[]) => async () => stop((await untilListed(args)).child);
    const times = await timeInTurns(
      {
        bare: variant([bare]),
        ...Object.fromEntries(profiles.map((p) => [p, variant(serveArgs(p))])),
      } as Record<"bare" | (typeof profiles)[number], () => Promise<void>>,
      7,
      1,
    );
    const bareName = "bare Node JSON-RPC responder: start to first tools/list";
    const rows: BenchRow[] = [{ name: bareName, value: times.bare, unit: "ms" }];
    for (const profile of profiles)
      rows.push({
        name: `clawtools serve --profile ${profile}: start to first tools/list`,
        value: times[profile],
        unit: "ms",
        baseline: bareName,
        target: "≤ 2.5×",
        met: times[profile] / times.bare <= 2.5,
      });
    // idle RSS: listed, then left alone for a second (the sections with state start meanwhile)
    const idle = async (args: string[]) => {
      const { child } = await untilListed(args);
      await new Promise((r) => setTimeout(r, 1000));
      const mb = rssMb(child.pid!);
      await stop(child);
      return mb;
    };
    // the cost serve defers past its first listing (the MCP SDK, the section of the tool called):
    // a first tools/call (read of a small file), its latency and the RSS after it, no target
    writeFileSync(path.join(workspace, "notes.txt"), "a line\n".repeat(200));
    const firstCall = async () => {
      const { child, answer } = await untilListed(serveArgs("full"));
      await settle();
      const idleMb = rssMb(child.pid!);
      const started = performance.now();
      const answered = answer(3);
      child.stdin!.write(
        `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read", arguments: { path: "notes.txt" } } })}\n`,
      );
      const reply = await answered;
      const ms = performance.now() - started;
      if (reply.error || reply.result?.isError) throw new Error(`read failed: ${JSON.stringify(reply)}`);
      await settle();
      const afterMb = rssMb(child.pid!);
      await stop(child);
      return { idleMb, ms, afterMb };
    };
    const bareRss = median([await idle([bare]), await idle([bare]), await idle([bare])]);
    const calls = [await firstCall(), await firstCall(), await firstCall()];
    const fullRss = median(calls.map((c) => c.idleMb));
    const bareRssName = "bare Node JSON-RPC responder: idle RSS";
    rows.push({ name: bareRssName, value: bareRss, unit: "MB" });
    rows.push({
      name: "clawtools serve --profile full: idle RSS",
      value: fullRss,
      unit: "MB",
      baseline: bareRssName,
      target: "≤ 1.5×",
      met: fullRss / bareRss <= 1.5,
    });
    rows.push({
      name: "clawtools serve --profile full: first tools/call (read) after listing, latency",
      value: median(calls.map((c) => c.ms)),
      unit: "ms",
    });
    rows.push({
      name: "clawtools serve --profile full: RSS after the first tools/call",
      value: median(calls.map((c) => c.afterMb)),
      unit: "MB",
      baseline: bareRssName,
    });
    return {
      title: "serve start-up and idle memory against a bare Node process",
      rows,
      notes: [
        "Uses the built CLI (apps/cli/dist); run `pnpm build` first. Start times are medians of 7 spawns per variant, taken in turns (bare, minimal, coding, full rotating), each including Node's own start-up.",
        "serve answers the 2025-era opening (initialize, tools/list) before it loads the MCP SDK, and a plain client's tool calls too (the per-call suite measures them against peers). The first-call rows show what a first call still loads: latency of a first `read` (the fs section and the schema compiler) and the RSS after it, medians of 3 processes, each measured after a second at rest.",
        `Load average when the suite ran: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
      ],
    };
  },
} satisfies BenchSuite;
