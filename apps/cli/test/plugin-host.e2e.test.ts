// `--plugin <package folder>` and plugins that print, as an MCP host meets them: the built CLI over
// stdio with the MCP SDK client, stdout holding protocol messages only.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, bin, ensureBuilt, fixtures, POLL } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

const noisy = path.join(fixtures, "noisy-package");
const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-plugin-host-"));

describe("serve --plugin <package folder> whose plugin logs", () => {
  let session: Awaited<ReturnType<typeof connectCli>>;
  const clientErrors: Error[] = [];
  beforeAll(async () => {
    ensureBuilt();
    session = await connectCli(["serve", "--workspace", workspace, "--plugin", noisy], {
      name: "e2e-plugin-host",
    });
    // a line on stdout that is not a protocol message reaches the client as an error
    session.client.onerror = (error) => clientErrors.push(error);
  }, BUILD_TIMEOUT_MS);
  afterAll(() => session?.client.close());

  it("loads the folder through package.json exports (not main) and serves its tool", async () => {
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("noisy_echo");
    // serve's stderr may be read after its answers on stdout (two pipes)
    await expect.poll(session.stderr, POLL).toContain(`plugin acme-noisy (${noisy}): serving noisy_echo`);
  });

  it("sends what the plugin prints at load and in each call to stderr, never between protocol messages", async () => {
    for (const text of ["one", "two"]) {
      const result = await session.client.callTool({ name: "noisy_echo", arguments: { text } });
      expect(result.content).toEqual([{ type: "text", text }]);
    }
    for (const line of [
      "noisy: console.log at load",
      "noisy: console.info at load",
      "noisy: stdout.write at load",
      "noisy: console.log in call one",
      "noisy: console.log in call two",
      "noisy: console.info in call",
      "noisy: stdout.write in call",
    ])
      await expect.poll(() => session.stderr(), POLL).toContain(line);
    expect(clientErrors).toEqual([]);
  });

  it("takes main when a package folder has no exports", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-main-only-"));
    mkdirSync(path.join(dir, "out"));
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "main-only", main: "out/entry.mjs" }),
    );
    writeFileSync(
      path.join(dir, "out", "entry.mjs"),
      `export const plugin = { id: "main-only", version: "1.0.0", tools: [{ pluginId: "main-only",
        names: ["main_only_ping"], factory: () => ({
          name: "main_only_ping", label: "Ping", description: "Answers pong",
          parameters: { type: "object", properties: {} },
          execute: async () => ({ content: [{ type: "text", text: "pong" }], details: {} }) }) }] };\n`,
    );
    const { client } = await connectCli(["serve", "--workspace", workspace, "--plugin", dir]);
    expect(await client.callTool({ name: "main_only_ping", arguments: {} })).toMatchObject({
      content: [{ type: "text", text: "pong" }],
    });
    await client.close();
  });

  it("says where a missing package was looked for and how to install it, in one line", () => {
    const run = spawnSync(
      process.execPath,
      [bin, "serve", "--workspace", workspace, "--plugin", "@acme/not-installed"],
      { encoding: "utf8", input: "", cwd: workspace },
    );
    expect(run.status).toBe(2);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'clawtools: plugin "@acme/not-installed" (--plugin): cannot load it: package not found',
    );
    expect(lines[0]).toContain(`looked in node_modules from ${workspace}`);
    expect(lines[0]).toContain("npm install @acme/not-installed");
    expect(lines[0]).not.toContain("dist/");
  });
});
