// `serve --surface search` as a host meets it: three tools listed, and a host model that only
// does what results tell it (search → take the id → dispatch_action) reaches sections, a plugin
// and two real mounted MCP servers, under the same policy as a direct call.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, fixtures, POLL, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

type Candidate = { id: string; name: string; source: string; input: string };

let client: Client;
let stderr: () => string;
const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-surface-"));

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(path.join(workspace, "note.txt"), "the launch code is 4711\n");
  const config = path.join(workspace, "clawtools.json");
  const echo = (prefix: string) => ({
    command: process.execPath,
    args: [path.join(fixtures, "echo-mcp-server.mjs")],
    env: { ECHO_PREFIX: prefix },
  });
  writeFileSync(
    config,
    JSON.stringify({ surface: "search", mcpServers: { alpha: echo("alpha: "), beta: echo("beta: ") } }),
  );
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
    "exec",
  ]));
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await client?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args });
/** The JSON a result shows; where an MCP server's words are in it, it comes framed as external content. */
const payload = (shown: string) => {
  const framed =
    /<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]+">>>\n[\s\S]*?\n---\n([\s\S]*)\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]+">>>/.exec(
      shown,
    );
  return JSON.parse(framed ? framed[1]! : shown);
};
const search = async (query: string) => payload(text(await call("tool_search", { query }))) as Candidate[];

describe("serve --surface search", () => {
  it("lists only the three Tool Search controls", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["tool_search", "tool_describe", "dispatch_action"]);
    await expect.poll(stderr, POLL).toContain("surface: search");
  });

  it("reaches a section's tool: search, then dispatch_action with the id the result gave", async () => {
    const [hit] = await search("read the contents of a file");
    expect(hit).toMatchObject({ name: "read", source: "clawtools" });
    const result = await call("dispatch_action", { id: hit!.id, args: { path: "note.txt" } });
    expect(text(result)).toContain("the launch code is 4711");
    // OpenClaw 9.6's published name for the same control answers too
    const again = await call("tool_call", { id: hit!.id, args: { path: "note.txt" } });
    expect(text(again)).toContain("4711");
  });

  it("reaches a plugin's tool and both mounted MCP servers' tools, whose schemas come through tool_describe", async () => {
    const [shout] = await search("upper-case some text");
    expect(shout).toMatchObject({ name: "shout", source: "plugin" });
    expect(text(await call("dispatch_action", { id: shout!.id, args: { text: "hey" } }))).toContain("HEY");
    const echoes = (await search("echo text back")).filter((c) => c.source === "mcp");
    expect(echoes.map((c) => c.name).sort()).toEqual(["alpha__echo", "beta__echo"]);
    expect(echoes.every((c) => c.input === "unknown")).toBe(true);
    const shown = text(await call("tool_describe", { id: echoes[0]!.id }));
    expect(shown).toContain("EXTERNAL_UNTRUSTED_CONTENT");
    expect(payload(shown).parameters).toMatchObject({ required: ["text"] });
    for (const hit of echoes) {
      const answer = text(await call("dispatch_action", { id: hit.id, args: { text: "hi" } }));
      expect(answer).toContain(`${hit.name.split("__")[0]}: hi`);
    }
  });

  it("a denied tool is neither found nor dispatched", async () => {
    const found = await search("run a shell command");
    expect(found.map((c) => c.name)).not.toContain("exec");
    const denied = await call("dispatch_action", { id: "exec", args: { command: "touch pwned" } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain("Unknown tool id: exec");
  });
});
