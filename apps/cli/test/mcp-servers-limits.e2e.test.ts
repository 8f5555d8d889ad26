import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, fixtures, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const big = { command: process.execPath, args: [path.join(fixtures, "big-mcp-server.mjs")] };

function config(servers: Record<string, unknown>): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mcp-limits-")), "clawtools.json");
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

describe("clawtools serve: a mounted MCP server's big answers and long names", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mcp-limits-ws-"));
  let session: Awaited<ReturnType<typeof connectCli>>;

  beforeAll(async () => {
    ensureBuilt();
    session = await connectCli(
      ["serve", "--workspace", workspace, "--config", config({ big }), "--profile", "minimal"],
      { name: "e2e-mcp-limits" },
    );
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await session?.client.close();
  });

  it("a 50 MB answer is cut at the result limit with the notice, and the server stays connected", async () => {
    const { client } = session;
    const answer = await client.callTool({ name: "big__answer", arguments: { mb: 50 } });
    const shown = text(answer);
    expect(shown.startsWith("0123456789".repeat(100))).toBe(true);
    expect(shown).toContain(
      "[Result truncated by the MCP server: showing the first 200,000 of 52,428,800 characters (limit 200,000 per result).",
    );
    expect(shown.length).toBeLessThan(201_000);
    expect(text(await client.callTool({ name: "big__small", arguments: {} }))).toBe("still here");
  }, 120_000);

  it("an answer over the 64 MiB message limit fails that call only, naming the limit", async () => {
    const { client, stderr } = session;
    const over = await client.callTool({ name: "big__answer", arguments: { mb: 70 } });
    expect(over.isError).toBe(true);
    expect(text(over)).toContain(
      "The MCP server's answer was too large: more than 67,108,864 bytes (73,400,",
    );
    expect(text(await client.callTool({ name: "big__small", arguments: {} }))).toBe("still here");
    expect(stderr()).not.toContain('MCP server "big" went away');
  }, 120_000);

  it("serves a 309-character tool name within 64 characters, deterministically, and calls it", async () => {
    const { client } = session;
    const names = (await client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith("big__"));
    const long = names.find((n) => n.startsWith("big__long_"))!;
    expect(long).toMatch(/^big__long_n{45}_[0-9a-f]{8}$/);
    expect(long).toHaveLength(64);
    expect(text(await client.callTool({ name: long, arguments: {} }))).toBe("long name answered");
    // the same name at the next start
    const again = await connectCli(
      ["serve", "--workspace", workspace, "--config", config({ big }), "--profile", "minimal"],
      { name: "e2e-mcp-limits-again" },
    );
    expect((await again.client.listTools()).tools.map((t) => t.name)).toContain(long);
    await again.client.close();
  }, 120_000);

  it("refuses a 300-character server name at start, saying why", () => {
    const name = `s${"x".repeat(299)}`;
    const run = spawnSync(
      process.execPath,
      [bin, "serve", "--workspace", workspace, "--config", config({ [name]: big })],
      {
        encoding: "utf8",
        input: "",
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `mcpServers: "${name.slice(0, 40)}…" is 300 characters; a server name is at most 32 (its tools are served as <name>__<tool>, and a tool name is at most 64 characters)`,
    );
    expect(run.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });
});
