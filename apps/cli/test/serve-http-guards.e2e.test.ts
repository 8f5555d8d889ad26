import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { connect as tcp } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, BUILD_TIMEOUT_MS, cliDir, ensureBuilt, text } from "./support/cli.js";
import { serveHttp } from "./support/serve.js";

// the SDK v2 client is a dependency of @clawtools/mcp, not of the CLI: loaded from there
const sdkV2 = createRequire(path.join(cliDir, "../../adapters/mcp/package.json")).resolve(
  "@modelcontextprotocol/client",
);
interface V2Client {
  connect(transport: unknown): Promise<void>;
  getNegotiatedProtocolVersion(): string | undefined;
  callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<{ isError?: boolean; content?: unknown; structuredContent?: unknown }>;
  close(): Promise<void>;
}
const { Client, StreamableHTTPClientTransport } = (await import(pathToFileURL(sdkV2).href)) as {
  Client: new (info: { name: string; version: string }, options: Record<string, unknown>) => V2Client;
  StreamableHTTPClientTransport: new (url: URL, options?: Record<string, unknown>) => unknown;
};

/** An SDK v2 client on 2026-07-28 (stateless: no session id), as a host names itself. */
async function modern(url: string, name: string, headers?: Record<string, string>) {
  const client = new Client({ name, version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : {}),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return client;
}

/** A 2025-era initialize with the given headers: the status and the body. */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
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

describe("clawtools serve --http: 2026-07-28 clients, local browsers, declared bodies", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-guards-"));
  let server: { child: ChildProcess; url: string; err: () => string };

  beforeAll(async () => {
    ensureBuilt();
    // a stateless client's agent session ends after 0.05 min (3 s) with no request
    server = await serveHttp(["--workspace", workspace, "--session-idle-minutes", "0.05"]);
  }, BUILD_TIMEOUT_MS);
  afterAll(() => {
    server?.child.kill("SIGTERM");
  });

  it("two 2026-07-28 clients each see and control only what they started; an idle client's processes end", async () => {
    const a = await modern(server.url, "host-a");
    const b = await modern(server.url, "host-b");
    const marker = `sleep 8${String(process.pid % 1000).padStart(3, "0")}`;
    const started = await a.callTool({
      name: "exec",
      arguments: { command: `sh -c '${marker} & wait'`, background: true },
    });
    const sessionId = (started.structuredContent as { sessionId?: string }).sessionId!;
    expect(sessionId).toBeTruthy();
    expect(text(await a.callTool({ name: "process", arguments: { action: "list" } }))).toContain(sessionId);
    expect(text(await b.callTool({ name: "process", arguments: { action: "list" } }))).toBe(
      "No running or recent sessions.",
    );
    const kill = await b.callTool({ name: "process", arguments: { action: "kill", sessionId } });
    expect(text(kill)).toContain(`No session found for ${sessionId}`);
    expect(alive(marker)).toBeGreaterThanOrEqual(1);
    // the same host program with another instance id is another client
    const a2 = await modern(server.url, "host-a", { "Clawtools-Client-Id": "second-window" });
    expect(text(await a2.callTool({ name: "process", arguments: { action: "list" } }))).toBe(
      "No running or recent sessions.",
    );
    // A goes quiet: after the idle time its agent session ends and its command with it
    await expect.poll(() => alive(marker), { timeout: 20_000, interval: 500 }).toBe(0);
    // the line is logged once the toolset is disposed, which is after the processes end
    await expect
      .poll(() => server.err(), { timeout: 10_000 })
      .toMatch(/stateless client c-[0-9a-f]{24}: agent session ended \(idle\)/);
    await Promise.all([a.close(), b.close(), a2.close()]);
  }, 60_000);

  it("serves a page on this machine (localhost, 127.0.0.1, [::1], any port) without --allow-origin; refuses others", async () => {
    for (const origin of [
      "http://localhost:6274",
      "http://127.0.0.1:5173",
      "http://[::1]:3000",
      "https://localhost",
    ])
      expect((await post(server.url, { origin })).status, origin).toBe(200);
    for (const origin of [
      "https://evil.example",
      "http://localhost.evil.example",
      "http://127.0.0.2.nip.io",
      "null",
    ]) {
      const refused = await post(server.url, { origin });
      expect(refused.status, origin).toBe(403);
      expect(JSON.parse(refused.body).error.message).toBe(
        `Forbidden: Origin ${origin} is not allowed to use this MCP server (allow it with clawtools serve --allow-origin ${origin})`,
      );
    }
    // the Host check is unchanged: a loopback Origin does not excuse a foreign Host (DNS rebinding)
    const rebound = await post(server.url, { origin: "http://localhost:6274", host: "evil.example" });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toBe(
      "Forbidden: Host evil.example is not this loopback server",
    );
  });

  it("answers a declared Content-Length over the limit with 413 at once, without waiting for the body", async () => {
    const { hostname, port, pathname } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = tcp(Number(port), hostname, () => {
        // headers only: the 10 GiB body never comes
        socket.write(
          `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
            "Accept: application/json, text/event-stream\r\nContent-Length: 10737418240\r\n\r\n",
        );
      });
      let got = "";
      socket.on("data", (d) => {
        got += String(d);
      });
      socket.on("close", () => resolve(got));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("Message too large: 10,737,418,240 bytes is over this server's limit of");
  }, 20_000);
});
