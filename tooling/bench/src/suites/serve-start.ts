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

/** Spawns `args`, sends initialize + tools/list, resolves when tools/list is answered. */
function untilListed(args: string[]): Promise<{ child: ChildProcess; tools: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    let buffer = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}) before tools/list`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, end)) as { id?: number; result?: { tools: unknown[] } };
        buffer = buffer.slice(end + 1);
        if (message.id === 2) resolve({ child, tools: message.result?.tools.length ?? 0 });
      }
    });
    child.stdin!.write(HELLO);
  });
}

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
    const bareRss = await idle([bare]);
    const fullRss = await idle(serveArgs("full"));
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
    return {
      title: "serve start-up and idle memory against a bare Node process",
      rows,
      notes: [
        "Uses the built CLI (apps/cli/dist); run `pnpm build` first. Start times are medians of 7 spawns per variant, taken in turns (bare, minimal, coding, full rotating), each including Node's own start-up.",
        `Load average when the suite ran: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
      ],
    };
  },
} satisfies BenchSuite;
