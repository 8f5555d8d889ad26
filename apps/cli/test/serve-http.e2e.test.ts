import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, ensureBuilt, text } from "./support/cli.js";
import { serveHttp as start } from "./support/serve.js";

async function connect(url: string) {
  const client = new Client({ name: "e2e-http-client", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

function initialize(url: string, origin?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(origin ? { origin } : {}),
        },
      },
      (res) => {
        let body = "";
        res.on("data", (d) => {
          body += String(d);
          if (body.includes("\n\n")) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, body });
        res.on("end", done);
        res.on("close", done);
      },
    );
    req.on("error", reject);
    req.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    );
  });
}

describe("clawtools serve --http: one agent session per client", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-clients-"));
  let server: { child: ChildProcess; url: string; err: () => string };

  beforeAll(async () => {
    ensureBuilt();
    server = await start([
      "--workspace",
      workspace,
      "--allow-origin",
      "http://localhost:5173",
      "--max-sessions",
      "2",
    ]);
  }, 400_000);
  afterAll(() => {
    server?.child.kill("SIGTERM");
  });

  it("client B never sees client A's background command; A's processes end with A's session", async () => {
    const a = await connect(server.url);
    const b = await connect(server.url);
    const marker = `sleep 7${String(process.pid % 1000).padStart(3, "0")}`;
    const started = await a.client.callTool({
      name: "exec",
      arguments: { command: `sh -c '${marker} & wait'`, background: true },
    });
    const sessionId = (started.structuredContent as { sessionId?: string }).sessionId!;
    expect(sessionId).toBeTruthy();
    expect(text(await a.client.callTool({ name: "process", arguments: { action: "list" } }))).toContain(
      sessionId,
    );
    expect(text(await b.client.callTool({ name: "process", arguments: { action: "list" } }))).toBe(
      "No running or recent sessions.",
    );
    // nor can B reach it by id
    const kill = await b.client.callTool({ name: "process", arguments: { action: "kill", sessionId } });
    expect(text(kill)).toContain(`No session found for ${sessionId}`);
    await expect.poll(() => alive(marker), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    // the server is full (--max-sessions 2): a third client is refused, naming the limit
    const third = await initialize(server.url);
    expect(third.status).toBe(503);
    expect(third.body).toContain("Too many MCP sessions: this server holds at most 2 live sessions");
    // A leaves: its session's processes are killed, its slot frees
    await a.transport.terminateSession();
    await expect.poll(() => alive(marker), { timeout: 10_000 }).toBe(0);
    const c = await connect(server.url);
    expect(text(await c.client.callTool({ name: "process", arguments: { action: "list" } }))).toBe(
      "No running or recent sessions.",
    );
    await b.transport.terminateSession();
    await c.transport.terminateSession();
  });

  it("refuses a browser Origin it was not told to allow (403) and serves the allowed one", async () => {
    const evil = await initialize(server.url, "https://evil.example");
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).error.message).toBe(
      "Forbidden: Origin https://evil.example is not allowed to use this MCP server (allow it with clawtools serve --allow-origin https://evil.example)",
    );
    const allowed = await initialize(server.url, "http://localhost:5173");
    expect(allowed.status).toBe(200);
    expect(server.err()).toContain("browser origins allowed: http://localhost:5173");
  });
});
