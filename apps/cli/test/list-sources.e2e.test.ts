// `clawtools list` and `describe` show what `serve` with the same flags and config serves: a
// `--plugin` tool and a mounted MCP server's tool included, each with where it comes from.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, fixtures } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

describe("clawtools list / describe with --plugin and mcpServers", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-list-sources-"));
  const config = path.join(dir, "clawtools.json");
  const plugin = path.join(fixtures, "shout-plugin.mjs");
  const env = { ...process.env, XDG_STATE_HOME: path.join(dir, ".state") };
  const flags = ["--workspace", dir, "--config", config, "--plugin", plugin];
  const cli = (args: string[]) => execFileSync(process.execPath, [bin, ...args], { env, encoding: "utf8" });

  beforeAll(() => {
    ensureBuilt();
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          echo: { command: process.execPath, args: [path.join(fixtures, "echo-mcp-server.mjs")] },
        },
      }),
    );
  }, BUILD_TIMEOUT_MS);

  it("list --json: the plugin's and the server's tools, served, with their sources; the same set serve serves", async () => {
    const listed = JSON.parse(cli(["list", "--json", ...flags])) as {
      served: string[];
      tools: Array<{ tool: string; served: boolean; source?: Record<string, string> }>;
    };
    const row = (name: string) => listed.tools.find((t) => t.tool === name);
    expect(row("shout")).toMatchObject({
      served: true,
      source: { kind: "plugin", plugin: "acme-shout", spec: plugin },
    });
    expect(row("echo__echo")).toMatchObject({ served: true, source: { kind: "mcp", server: "echo" } });
    expect(row("read")).toMatchObject({ served: true, source: { kind: "section", section: "fs" } });
    // what serve with the same flags answers tools/list with
    const { client } = await connectCli(["serve", ...flags], { env: env as Record<string, string> });
    try {
      const served = (await client.listTools()).tools.map((t) => t.name).sort();
      expect([...listed.served].sort()).toEqual(served);
      expect(served).toEqual(expect.arrayContaining(["shout", "echo__echo"]));
    } finally {
      await client.close();
    }
  }, 120_000);

  it("list as text: the plugin and the MCP server as sections of their own", () => {
    const lines = cli(["list", ...flags]).split("\n");
    const heading = (needle: string) => lines.findIndex((l) => !l.startsWith(" ") && l.includes(needle));
    const shout = heading(`plugin ${plugin}`);
    expect(shout).toBeGreaterThan(-1);
    expect(lines[shout + 1]).toMatch(/^ {2}shout +available/);
    const echo = heading('MCP server "echo"');
    expect(echo).toBeGreaterThan(-1);
    expect(lines[echo + 1]).toMatch(/^ {2}echo__echo +available/);
  }, 60_000);

  it("describe names where each tool comes from", () => {
    const shout = JSON.parse(cli(["describe", "shout", ...flags]));
    expect(shout).toMatchObject({
      name: "shout",
      source: { kind: "plugin", plugin: "acme-shout", spec: plugin },
      parameters: { properties: { text: { type: "string" } } },
    });
    const echo = JSON.parse(cli(["describe", "echo__echo", ...flags]));
    expect(echo).toMatchObject({ name: "echo__echo", source: { kind: "mcp", server: "echo" } });
    const read = JSON.parse(cli(["describe", "read", ...flags]));
    expect(read.source).toMatchObject({ kind: "section", section: "fs", package: "@clawtools/fs" });
  }, 60_000);
});
