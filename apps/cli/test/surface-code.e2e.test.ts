// `serve --surface code` as a host meets it: two tools listed, and a host model that only does
// what the listing tells it writes JavaScript against the catalog: read and exec (a real shell
// command) through the API, a plugin's tool found by catalog.search, both mounted MCP servers
// under MCP, a declaration read with API.read, a denied tool absent.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, fixtures, POLL, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

let client: Client;
let stderr: () => string;
const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-code-"));

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(path.join(workspace, "note.txt"), "the launch code is 4711\n");
  const config = path.join(workspace, "clawtools.json");
  const echo = (prefix: string) => ({
    command: process.execPath,
    args: [path.join(fixtures, "echo-mcp-server.mjs")],
    env: { ECHO_PREFIX: prefix },
  });
  writeFileSync(config, JSON.stringify({ mcpServers: { alpha: echo("alpha: "), beta: echo("beta: ") } }));
  ({ client, stderr } = await connectCli([
    "serve",
    "--workspace",
    workspace,
    "--config",
    config,
    "--plugin",
    path.join(fixtures, "shout-plugin.mjs"),
    "--profile",
    "coding",
    "--deny",
    "write",
    "--surface",
    "code",
  ]));
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
});

type CodeResult = { status: string; value?: unknown; output: unknown[]; error?: string };
/** exec's result: JSON, framed as external content where an MCP server's data is in it. */
const exec = async (code: string) => {
  const result = await client.callTool({ name: "exec", arguments: { code } });
  const shown = text(result);
  const framed =
    /<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]+">>>\n[\s\S]*?\n---\n([\s\S]*)\n<<<END_EXTERNAL_UNTRUSTED_CONTENT/.exec(
      shown,
    );
  return { ...(JSON.parse(framed ? framed[1]! : shown) as CodeResult), framed: Boolean(framed) };
};

describe("serve --surface code", () => {
  it("lists only OpenClaw's code mode controls, exec indexing the catalog's tool globals", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["exec", "wait"]);
    await expect.poll(stderr, POLL).toContain("surface: code (exec, wait over");
    const description = tools[0]!.description!;
    expect(description).toMatch(/^- read \{ path: string;.*\} -> /m);
    expect(description).toMatch(/^- exec \{ command: string;.*\} -> /m);
    expect(description).toContain("MCP tools use the `MCP` namespace (servers: alpha, beta");
    expect(tools[0]!.inputSchema).toMatchObject({ required: ["code"] });
  });

  it("runs code that reads a file and runs a real shell command through the API", async () => {
    const result = await exec(
      `const note = await read({ path: "note.txt" });
       const shell = await exec({ command: "echo from-the-shell $((6 * 7))" });
       text(note.text.trim());
       return { code: note.text.match(/\\d+/)[0], shell: shell.text };`,
    );
    expect(result.status).toBe("completed");
    expect(result.output).toEqual([{ type: "text", text: "the launch code is 4711" }]);
    expect(result.value).toMatchObject({ code: "4711" });
    expect((result.value as { shell: string }).shell).toContain("from-the-shell 42");
    expect(result.framed).toBe(false);
  });

  it("reads a tool's declaration, finds the plugin's tool by search, and calls both MCP servers", async () => {
    const declared = await exec(`return (await API.read("tools/read.d.ts")).content;`);
    expect(declared.value).toMatch(/declare function read\(input: \{ path: string;/);
    const result = await exec(
      `const [shout] = await catalog.search("upper-case some text");
       const loud = await shout({ text: "hey" });
       const alpha = await MCP.alpha.echo({ text: "hi" });
       const beta = await MCP.beta.echo({ text: "ho" });
       return { tool: shout.toolName, loud: loud.text, alpha: alpha.content[0].text, beta: beta.content[0].text };`,
    );
    expect(result).toMatchObject({
      status: "completed",
      value: { tool: "shout", loud: "HEY", alpha: "alpha: hi", beta: "beta: ho" },
      framed: true,
    });
  });

  it("keeps a denied tool out of reach and fails closed on a limit, naming it", async () => {
    const denied = await exec(
      `return { type: typeof write, found: (await catalog.search("write a file")).map((t) => t.toolName) };`,
    );
    expect(denied.value).toMatchObject({ type: "undefined" });
    expect((denied.value as { found: string[] }).found).not.toContain("write");
    const looped = await exec(`while (true) {}`);
    expect(looped).toMatchObject({ status: "failed", code: "timeout", error: "code mode timeout exceeded" });
    // the server still answers at once
    const after = await exec(`return 1 + 1;`);
    expect(after.value).toBe(2);
  });

  it("keeps data between exec calls of the session: results.save, then the id it returned loaded in a later call", async () => {
    const saved = await exec(
      `const note = await read({ path: "note.txt" }); return await results.save({ lines: note.text.split("\\n") });`,
    );
    const reference = saved.value as { id: string; count: number; preview: string };
    expect(reference).toMatchObject({
      count: 1,
      preview: JSON.stringify({ lines: ["the launch code is 4711", ""] }),
    });
    const loaded = await exec(
      `const kept = await results.load(${JSON.stringify(reference.id)}); return kept.lines[0];`,
    );
    expect(loaded.value).toBe("the launch code is 4711");
  });
});
