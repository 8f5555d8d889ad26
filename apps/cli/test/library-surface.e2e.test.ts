// An app's composeBundle with `surface: "search"` serves what `clawtools serve` serves from the
// same file: the same three Tool Search controls, the same catalog behind them.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, fixtures, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

describe("composeBundle({ surface: 'search' }) in an app and serve --config on the same file", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-library-surface-"));
  const config = path.join(dir, "clawtools.json");
  const env = { XDG_STATE_HOME: path.join(dir, ".state"), HOME: dir };
  let cli: Client;
  let app: Client;

  beforeAll(async () => {
    ensureBuilt();
    // a plugin and a mounted server too: the catalog behind the controls holds them
    writeFileSync(
      config,
      JSON.stringify({
        workspace: ".",
        surface: "search",
        deny: ["exec"],
        plugins: [path.join(fixtures, "shout-plugin.mjs")],
        mcpServers: {
          echo: { command: process.execPath, args: [path.join(fixtures, "echo-mcp-server.mjs")] },
        },
      }),
    );
    ({ client: cli } = await connectCli(["serve", "--config", config], { cwd: dir, env, name: "cli" }));
    app = new Client({ name: "app", version: "1" });
    await app.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(fixtures, "library-serve.mjs"), config],
        cwd: path.resolve(fixtures, ".."),
        env: { ...(process.env as Record<string, string>), ...env },
        stderr: "ignore",
      }),
    );
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await cli?.close();
    await app?.close();
  });

  it("lists the same tools with the same schemas and descriptions", async () => {
    const [fromCli, fromApp] = await Promise.all([cli.listTools(), app.listTools()]);
    expect(fromCli.tools.map((t) => t.name).sort()).toEqual([
      "dispatch_action",
      "tool_describe",
      "tool_search",
    ]);
    expect(fromApp.tools).toEqual(fromCli.tools);
  });

  it("searches the same catalog: the plugin's and the mounted server's tools, never the denied exec", async () => {
    // the untrusted-content markers carry a random id per call: everything else is the same
    const search = async (client: Client, query: string) =>
      text(await client.callTool({ name: "tool_search", arguments: { query } })).replace(
        /id="[^"]*"/g,
        'id=""',
      );
    for (const query of ["upper-case text shout", "echo", "run a shell command exec"]) {
      const [a, b] = await Promise.all([search(cli, query), search(app, query)]);
      expect(b).toBe(a);
    }
    expect(await search(app, "upper-case text shout")).toContain("shout");
    expect(await search(app, "echo")).toContain("echo__echo");
    expect(await search(app, "run a shell command exec")).not.toContain('"name": "exec"');
    expect(await search(app, "read a file")).toContain('"name": "read"');
  });

  it("dispatches a plugin tool through the controls alike", async () => {
    const call = { name: "dispatch_action", arguments: { id: "shout", args: { text: "same" } } };
    const [a, b] = await Promise.all([cli.callTool(call), app.callTool(call)]);
    expect(text(b)).toBe(text(a));
    expect(text(b)).toContain("SAME");
  });
});
