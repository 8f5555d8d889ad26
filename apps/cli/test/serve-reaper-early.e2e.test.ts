import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POLL, requireBuilt, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// A serve that serves exec starts its process-group reaper once the client has gone quiet after
// the opening, so a host's first command does not wait for that spawn; the command then uses it.

/** The live reapers (the reaper's script reads `op id` lines) whose parent is `pid`. */
function reapersOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z" || Number(ppid) !== pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, "latin1").includes("while read -r op id"))
        found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

let ws: string;
let client: Client;
let transport: StdioClientTransport;

beforeAll(async () => {
  requireBuilt();
  ws = mkdtempSync(path.join(tmpdir(), "clawtools-reaper-early-"));
  ({ client, transport } = await connectCli(["serve", "--profile", "coding", "--workspace", ws]));
});

afterAll(async () => {
  await client?.close();
  rmSync(ws, { recursive: true, force: true });
});

it("starts the reaper after the opening, before any exec, and the first exec uses it", async () => {
  const pid = transport.pid!;
  expect(pid).toBeGreaterThan(0);
  // nothing was called yet: only going quiet can have started it
  await expect.poll(() => reapersOf(pid).length, POLL).toBe(1);
  const reaper = reapersOf(pid)[0];
  const result = await client.callTool({ name: "exec", arguments: { command: "echo early-reaper" } });
  expect(text(result)).toContain("early-reaper");
  expect(reapersOf(pid)).toEqual([reaper]);
});
