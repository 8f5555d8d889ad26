// One config file, two ways in: `clawtools serve --config f.json` driven by an MCP client as a host
// would, and `composeBundle(JSON.parse(f.json))` in an app's own process. Both must serve the same
// tools with the same schemas, and answer the same calls alike.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AnyAgentTool } from "@clawtools/core";
import { toolInputSchema } from "@clawtools/core/providers";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type Bundle, composeBundle } from "clawtools/compose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, fixtures, text } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

// a profile narrowed by allow and deny, a third-party plugin and a mounted MCP server
const CONFIG = {
  workspace: "workspace",
  stateDir: ".state",
  profile: "coding",
  allow: ["group:fs", "exec", "shout", "echo__echo"],
  deny: ["edit"],
  plugins: [path.join(fixtures, "shout-plugin.mjs")],
  mcpServers: {
    echo: {
      command: process.execPath,
      args: [path.join(fixtures, "echo-mcp-server.mjs")],
      env: { ECHO_PREFIX: "echo: " },
    },
  },
};

/** A directory holding the config file and its workspace, with one file to read. */
function project(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `clawtools-e2e-equivalence-${name}-`));
  mkdirSync(path.join(dir, "workspace"));
  writeFileSync(path.join(dir, "workspace", "notes.md"), "line one\nline two\n");
  writeFileSync(path.join(dir, "clawtools.json"), JSON.stringify(CONFIG, null, 2));
  return dir;
}

/** An in-process tool's result as an MCP client reads it: its text parts, and whether it failed. */
async function callBundle(bundle: Bundle, name: string, args: Record<string, unknown>) {
  const tool = bundle.tools.find((t) => t.name === name) as AnyAgentTool | undefined;
  if (!tool) return { text: undefined, isError: true };
  const result = await tool.execute(`call-${name}`, args);
  return { text: text(result), isError: result.isError === true };
}

async function callServe(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { text: text(result), isError: result.isError === true };
}

describe("serve --config f.json and composeBundle(JSON.parse(f.json))", () => {
  const served = project("serve");
  const library = project("library");
  let client: Client;
  let bundle: Bundle;

  beforeAll(async () => {
    ensureBuilt();
    ({ client } = await connectCli(["serve", "--config", path.join(served, "clawtools.json")], {
      cwd: served,
      env: { HOME: served },
      name: "equivalence",
    }));
    const file = path.join(library, "clawtools.json");
    bundle = await composeBundle(JSON.parse(readFileSync(file, "utf8")), { baseDir: library });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
    await bundle?.close();
  });

  it("serve the same tools, under the profile, allow and deny, with the plugin's and the mounted server's", async () => {
    const listed = (await client.listTools()).tools;
    const names = listed.map((t) => t.name).sort();
    expect(bundle.tools.map((t) => t.name).sort()).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(["read", "write", "exec", "shout", "echo__echo"]));
    expect(names).not.toContain("edit");
    expect(names).not.toContain("web_fetch");
  });

  it("with identical input schemas and descriptions", async () => {
    const listed = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const tool of bundle.tools) {
      const mcp = listed.get(tool.name)!;
      expect(mcp.inputSchema, tool.name).toEqual(toolInputSchema(tool.parameters));
      expect(mcp.description, tool.name).toBe(tool.description);
    }
  });

  it("answer read, write, exec, the plugin's and the mounted server's tools alike", async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ["read", { path: "notes.md" }],
      ["write", { path: "out/new.txt", content: "written\n" }],
      ["read", { path: "out/new.txt" }],
      ["exec", { command: "echo same-answer" }],
      ["shout", { text: "same" }],
      ["echo__echo", { text: "mounted" }],
      // bad input is refused alike, naming the parameter
      ["read", {}],
    ];
    for (const [name, args] of calls) {
      const [a, b] = [await callServe(client, name, args), await callBundle(bundle, name, args)];
      expect(b, `${name} ${JSON.stringify(args)}`).toEqual(a);
    }
    for (const dir of [served, library])
      expect(readFileSync(path.join(dir, "workspace", "out", "new.txt"), "utf8")).toBe("written\n");
    expect((await callServe(client, "exec", { command: "echo same-answer" })).text).toContain("same-answer");
    expect((await callServe(client, "echo__echo", { text: "m" })).text).toBe("echo: m");
  });

  it("refuse a denied tool alike: neither serves it, nor runs it", async () => {
    const edit = { path: "notes.md", oldText: "line one", newText: "changed" };
    await expect(callServe(client, "edit", edit)).rejects.toThrow("Unknown tool: edit");
    expect(bundle.tools.some((t) => t.name === "edit")).toBe(false);
    for (const dir of [served, library])
      expect(readFileSync(path.join(dir, "workspace", "notes.md"), "utf8")).toBe("line one\nline two\n");
    const described = bundle.describe();
    expect(described.served.some((t) => t.name === "edit")).toBe(false);
    expect(described.leftOut.find((t) => t.name === "edit")?.reason).toMatch(/deny/i);
  });
});
