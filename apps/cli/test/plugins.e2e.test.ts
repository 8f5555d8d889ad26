import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { alive, BUILD_TIMEOUT_MS, bin, ensureBuilt, fixtures, POLL } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const shout = path.join(fixtures, "shout-plugin.mjs");
const broken = path.join(fixtures, "broken-plugin.mjs");

async function serve(args: string[]) {
  const { client, stderr } = await connectCli(["serve", ...args], { name: "e2e-plugins" });
  const names = (await client.listTools()).tools.map((t) => t.name);
  return { client, names, stderr };
}

describe("clawtools serve --plugin / config plugins", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-plugins-"));
  beforeAll(() => ensureBuilt(), BUILD_TIMEOUT_MS);

  it("serves a named plugin's tools under the default coding profile and says so at start", async () => {
    const { client, names, stderr } = await serve(["--workspace", workspace, "--plugin", shout]);
    expect(names).toContain("shout");
    expect(names).toContain("read");
    expect(await client.callTool({ name: "shout", arguments: { text: "hey" } })).toMatchObject({
      content: [{ type: "text", text: "HEY" }],
      structuredContent: { length: 3 },
    });
    await expect.poll(stderr, POLL).toContain(`[clawtools] plugin acme-shout (${shout}): serving shout`);
    await client.close();
  });

  it("serves it under minimal too, and --deny still removes it", async () => {
    const minimal = await serve(["--workspace", workspace, "--plugin", shout, "--profile", "minimal"]);
    expect(minimal.names).toContain("shout");
    expect(minimal.names).not.toContain("read");
    await minimal.client.close();
    const denied = await serve(["--workspace", workspace, "--plugin", shout, "--deny", "shout"]);
    expect(denied.names).not.toContain("shout");
    await expect.poll(denied.stderr, POLL).toContain("plugin acme-shout");
    await expect.poll(denied.stderr, POLL).toContain("no tool served (all denied)");
    await denied.client.close();
  });

  it("loads the config file's plugins, paths taken from the file's directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-plugins-config-"));
    const file = path.join(dir, "clawtools.json");
    writeFileSync(file, JSON.stringify({ plugins: [path.relative(dir, shout)] }));
    const { client, names } = await serve(["--workspace", workspace, "--config", file]);
    expect(names).toContain("shout");
    await client.close();
  });

  it("fails the start naming a plugin that breaks the contract, cannot load, or collides", () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [bin, "serve", "--workspace", workspace, ...args], {
        encoding: "utf8",
        input: "",
      });
    const bad = run(["--plugin", broken]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`clawtools: plugin "${broken}" (--plugin): breaks the plugin contract: `);
    expect(bad.stderr).toContain("description must be a non-empty string");
    const missing = run(["--plugin", "./nope-plugin.mjs"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      'clawtools: plugin "./nope-plugin.mjs" (--plugin): cannot load it: no such file: ',
    );
    const twice = run(["--plugin", shout, "--plugin", shout]);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain("its tool shout is already served (by acme-shout); remove one of them");
  });

  it("mounts the config file's mcpServers as <name>__<tool>, skipping one that does not start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mcp-servers-"));
    const file = path.join(dir, "clawtools.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          echoes: {
            command: process.execPath,
            args: [path.join(fixtures, "echo-mcp-server.mjs")],
            env: { ECHO_PREFIX: "remote: " },
          },
          ghost: { command: path.join(dir, "no-such-server") },
        },
      }),
    );
    const { client, names, stderr } = await serve([
      "--workspace",
      workspace,
      "--config",
      file,
      "--profile",
      "minimal",
    ]);
    expect(names).toContain("echoes__echo");
    expect(await client.callTool({ name: "echoes__echo", arguments: { text: "hi" } })).toMatchObject({
      content: [{ type: "text", text: "remote: hi" }],
    });
    await expect
      .poll(stderr, POLL)
      .toContain('[clawtools] MCP server "ghost" did not start and is skipped: ');
    await expect.poll(stderr, POLL).toContain("plugin mcp:echoes (mcpServers.echoes): serving echoes__echo");
    // by its full path: the Node 24 run of this file (beside this one in CI) runs a copy of it elsewhere
    const serverProcesses = () => alive(path.join(fixtures, "echo-mcp-server.mjs"));
    expect(serverProcesses()).toBeGreaterThanOrEqual(1);
    // serve ends at end of input, and the server it started ends with it
    await client.close();
    await expect.poll(serverProcesses, { timeout: 10_000 }).toBe(0);
    const denied = await serve(["--workspace", workspace, "--config", file, "--deny", "echoes__echo"]);
    expect(denied.names).not.toContain("echoes__echo");
    await denied.client.close();
  });

  it("refuses a malformed mcpServers entry, naming it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mcp-bad-"));
    const file = path.join(dir, "clawtools.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { broken: { args: ["x"] } } }));
    const run = spawnSync(process.execPath, [bin, "serve", "--workspace", workspace, "--config", file], {
      encoding: "utf8",
      input: "",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `clawtools: --config ${file}: mcpServers.broken: needs "command" (a stdio server) or "url" (Streamable HTTP)`,
    );
  });
});
