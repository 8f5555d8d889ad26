import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cliDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(cliDir, "dist", "bin.js");
const repo = path.resolve(cliDir, "../..");
const text = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");
const alive = (needle: string) =>
  execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(needle) && !l.trim().startsWith("Z")).length;

describe("clawtools serve (built, over stdio MCP)", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-"));
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    // the end-to-end test drives the built CLI, as a user would run it
    if (!existsSync(bin))
      execFileSync("pnpm", ["turbo", "run", "build", "--filter=@clawtools/cli..."], {
        cwd: repo,
        stdio: "ignore",
      });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "serve", "--workspace", workspace],
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
  }, 180_000);

  afterAll(async () => {
    await client?.close();
  });

  it("lists the coding tools with annotations, logging only to stderr", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["read", "write", "edit", "grep", "find", "ls", "exec", "process"]),
    );
    expect(tools.find((t) => t.name === "read")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "write")!.annotations).toMatchObject({ destructiveHint: true });
    expect(stderr).toContain("[clawtools] serving");
  });

  it("writes, reads and edits a file", async () => {
    expect(
      text(
        await client.callTool({ name: "write", arguments: { path: "notes.md", content: "hello\nworld\n" } }),
      ),
    ).toBe("Successfully wrote 12 bytes to notes.md");
    expect(text(await client.callTool({ name: "read", arguments: { path: "notes.md" } }))).toBe(
      "hello\nworld\n",
    );
    const edited = await client.callTool({
      name: "edit",
      arguments: { path: "notes.md", edits: [{ oldText: "world", newText: "MCP" }] },
    });
    expect(text(edited)).toBe("Successfully replaced 1 block(s) in notes.md.");
    expect(readFileSync(path.join(workspace, "notes.md"), "utf8")).toBe("hello\nMCP\n");
  });

  it("streams exec progress notifications when the client sends a progress token", async () => {
    const progress: string[] = [];
    const r = await client.callTool(
      { name: "exec", arguments: { command: "for i in 1 2 3; do echo tick $i; sleep 0.1; done" } },
      undefined,
      {
        onprogress: (p) => progress.push(p.message ?? ""),
      },
    );
    expect(text(r)).toBe("tick 1\ntick 2\ntick 3");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toContain("tick");
  });

  it("returns isError for a bad call", async () => {
    const r = await client.callTool({ name: "read", arguments: { path: "/etc/passwd" } });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("Path escapes sandbox root");
    const invalid = await client.callTool({ name: "read", arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(text(invalid))).toMatchObject({
      status: "error",
      tool: "read",
      error: expect.stringContaining('Validation failed for tool "read":\n  - path: is required'),
    });
  });

  it("cancelling a long exec kills its process", async () => {
    const controller = new AbortController();
    const pending = client.callTool(
      { name: "exec", arguments: { command: "sh -c 'sleep 5151 & sleep 5151'" } },
      undefined,
      { signal: controller.signal },
    );
    const end = Date.now() + 10_000;
    while (alive("sleep 5151") < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(alive("sleep 5151")).toBeGreaterThanOrEqual(2);
    controller.abort();
    await expect(pending).rejects.toThrow();
    const deadline = Date.now() + 10_000;
    while (alive("sleep 5151") > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive("sleep 5151")).toBe(0);
  });
});
