import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { connectCli } from "./support/serve.js";

/** A call for every tool that declares an outputSchema: the SDK client validates each result. */
const CALLS: Record<string, Record<string, unknown>> = {
  exec: { command: "echo structured" },
  edit: { path: "notes.txt", oldText: "alpha", newText: "beta" },
  memory_search: { query: "alpha" },
  memory_get: { path: "MEMORY.md" },
  sessions_list: {},
  sessions_history: { sessionKey: "main" },
  session_status: {},
  agents_list: {},
  update_plan: { plan: [{ step: "check the schema", status: "in_progress" }] },
};

describe("clawtools serve --profile full: titles, annotations, output schemas", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-tools-"));
  const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-tools-state-"));
  let client: Client;
  let tools: Tool[];
  let stderr: () => string;

  beforeAll(async () => {
    ensureBuilt();
    writeFileSync(path.join(workspace, "notes.txt"), "alpha\n");
    ({ client, stderr } = await connectCli(
      ["serve", "--workspace", workspace, "--state-dir", stateDir, "--profile", "full", "--owner"],
      { name: "e2e-tools" },
    ));
    ({ tools } = await client.listTools());
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
  });

  const tool = (name: string) => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`${name} is not served: ${tools.map((t) => t.name).join(", ")}`);
    return found;
  };

  it("gives every tool a title and annotations", () => {
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.title, t.name).not.toBe(t.name);
      expect(t.annotations?.title, t.name).toBe(t.title);
    }
    expect(tool("read").title).toBe("Read file contents");
    expect(tool("update_plan").title).toBe("Update plan");
  });

  it("marks read-only, destructive and open-world tools as the issue lists them", () => {
    const readOnly = ["read", "ls", "grep", "find", "memory_search", "memory_get", "sessions_list"];
    readOnly.push("sessions_history", "session_status", "agents_list");
    for (const name of readOnly)
      expect(tool(name).annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    for (const name of ["write", "edit", "apply_patch", "exec"].filter((n) =>
      tools.some((t) => t.name === n),
    ))
      expect(tool(name).annotations, name).toMatchObject({ destructiveHint: true });
    for (const name of ["web_fetch", "browser"])
      expect(tool(name).annotations, name).toMatchObject({ openWorldHint: true });
    expect(tool("read").annotations).toMatchObject({ openWorldHint: false });
  });

  it("declares an outputSchema exactly for the tools with a known result shape", () => {
    const declared = tools.filter((t) => t.outputSchema).map((t) => t.name);
    expect(declared.sort()).toEqual(Object.keys(CALLS).sort());
    expect(tool("exec").outputSchema).toMatchObject({ type: "object", required: ["status"] });
  });

  for (const [name, args] of Object.entries(CALLS)) {
    it(`${name}: structuredContent validates against its outputSchema (checked by the SDK client)`, async () => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(result.structuredContent).toBeTypeOf("object");
      expect(stderr()).not.toContain("does not match its outputSchema");
    });
  }

  it("a background exec's result validates too", async () => {
    const result = await client.callTool({
      name: "exec",
      arguments: { command: "sleep 30", background: true },
    });
    expect(result.structuredContent).toMatchObject({ status: "running" });
    const id = (result.structuredContent as { sessionId: string }).sessionId;
    await client.callTool({ name: "process", arguments: { action: "kill", sessionId: id } });
  });

  it("gateway config.schema.lookup answers from the CLI's own configuration schema", async () => {
    const lookup = async (p: string) =>
      (await client.callTool({ name: "gateway", arguments: { action: "config.schema.lookup", path: p } }))
        .structuredContent as { ok?: boolean; result?: { path: string; schema: Record<string, unknown> } };
    const fetch = await lookup("web.fetch");
    expect(fetch.ok).toBe(true);
    expect(fetch.result?.schema).toMatchObject({ type: "object" });
    expect(Object.keys(fetch.result?.schema.properties as object)).toContain("maxChars");
    expect((await lookup("maxSessions")).result?.schema).toMatchObject({ type: "integer", minimum: 1 });
    const missing = await client.callTool({
      name: "gateway",
      arguments: { action: "config.schema.lookup", path: "nope.deeper" },
    });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("config path not found in schema: nope.deeper");
  });
});
