import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, expect, it } from "vitest";
import { gone, isAlive } from "./helpers.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
// tsx (a dev dependency of this package) runs the "server" from source
const TSX = pathToFileURL(
  createRequire(path.join(ROOT, "adapters/runner-acp/package.json")).resolve("tsx"),
).href;
const RUNNER = pathToFileURL(path.join(import.meta.dirname, "../src/index.ts")).href;

let server: ChildProcess | undefined;
const pids: number[] = [];
afterEach(() => {
  server?.kill("SIGKILL");
  for (const pid of pids.splice(0))
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
});

it("kill -9 of the server kills the ACP harness and everything it started", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "acp-lifetime-"));
  const file = path.join(dir, "server.mjs");
  // the harness starts a helper of its own (as agents start shells and language servers)
  writeFileSync(
    file,
    `import { AgentProcess } from ${JSON.stringify(RUNNER)};
const agent = new AgentProcess({ command: "/bin/sh", args: ["-c", "sleep 300 & echo $!; cat"], cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH } });
agent.child.stdout.once("data", (d) => console.log(JSON.stringify([agent.pid, Number(String(d).trim())])));
setInterval(() => {}, 60_000);
`,
  );
  server = spawn(process.execPath, ["--conditions=@clawtools/source", "--import", TSX, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: server!.stdout! }).once("line", resolve),
  );
  pids.push(...(JSON.parse(line) as number[]));
  expect(pids.every(isAlive)).toBe(true);
  server.kill("SIGKILL");
  for (const pid of pids) expect(await gone(pid)).toBe(true);
}, 90_000);
