import { request } from "node:http";
import { connect as connectTcp } from "node:net";
import { createToolset, definePlugin, Type } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLIENT_ID_HEADER,
  type McpHttpServing,
  type McpToolsetLike,
  normalizeOrigin,
  originRefusedMessage,
  type ServeHttpOptions,
  serveHttp,
  sessionNotFoundMessage,
  tooManySessionsMessage,
} from "../src/index.js";

/** A toolset whose `whoami` answers which toolset (session) served the call. */
function namedToolset(name: string, disposed: string[] = []): McpToolsetLike {
  const plugin = definePlugin({
    id: `who-${name}`,
    version: "1.0.0",
    tools: [
      {
        factory: {
          name: "whoami",
          label: "Who am I",
          description: "Names the toolset that serves the call",
          parameters: Type.Object({}),
          execute: async () => ({ content: [{ type: "text", text: name }], details: { name } }),
        },
      },
    ],
  });
  const set = createToolset({ plugins: [plugin] });
  return { ...set, dispose: async () => void disposed.push(name) };
}

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One raw HTTP request (browsers' headers such as Origin, which fetch would not let us set). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
        // an SSE answer stays open until the session closes: one event is the answer
        if (res.headers["content-type"]?.includes("text/event-stream") && text.includes("\n\n"))
          res.destroy();
      });
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      res.on("end", done);
      res.on("close", done);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialize = (url: string, headers: Record<string, string> = {}) =>
  raw(url, "POST", { ...JSON_HEADERS, ...headers }, INIT);

async function connect(url: string) {
  const client = new Client({ name: "sessions-test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

const servers: McpHttpServing[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function serve(options: Partial<ServeHttpOptions> = {}, set = namedToolset("shared")) {
  const s = await serveHttp(set, { port: 0, signals: false, ...options });
  servers.push(s);
  return s;
}

describe("serveHttp: Origin", () => {
  it("serves requests without Origin, refuses a foreign one with 403 naming the flag", async () => {
    const s = await serve();
    const { client } = await connect(s.url); // the SDK's Node client sends no Origin
    expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([
      { type: "text", text: "shared" },
    ]);
    await client.close();
    const before = s.sessionCount();
    for (const origin of [
      "https://evil.example",
      "null",
      "http://localhost.evil.example",
      "http://127.0.0.2:80",
    ]) {
      const res = await initialize(s.url, { origin });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: originRefusedMessage(origin) },
      });
    }
    expect(originRefusedMessage("https://evil.example")).toBe(
      "Forbidden: Origin https://evil.example is not allowed to use this MCP server (allow it with clawtools serve --allow-origin https://evil.example)",
    );
    expect(s.sessionCount()).toBe(before);
  });

  it("on loopback, serves pages on this machine (localhost, 127.0.0.1, [::1], any port) unasked; not on another address", async () => {
    const s = await serve();
    for (const origin of [
      `http://127.0.0.1:${s.port + 1}`,
      "http://localhost:6274",
      "http://[::1]:3000",
      "https://LOCALHOST",
    ]) {
      const res = await initialize(s.url, { origin });
      expect(res.status, origin).toBe(200);
      expect(res.headers["access-control-allow-origin"]).toBe(origin);
    }
    // listening beyond loopback, a page on the server's machine is not the user's: it needs --allow-origin
    const wide = await serve({ host: "0.0.0.0", token: "t0ken" });
    const url = `http://127.0.0.1:${wide.port}/mcp`;
    const res = await initialize(url, { origin: "http://localhost:6274", authorization: "Bearer t0ken" });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toBe(originRefusedMessage("http://localhost:6274"));
  });

  it("answers a declared Content-Length over the limit with 413 before any body arrives", async () => {
    const s = await serve({ maxMessageBytes: 1000 });
    const { port } = new URL(s.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connectTcp(Number(port), "127.0.0.1", () =>
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n`,
        ),
      );
      let got = "";
      socket.on("data", (d) => {
        got += String(d);
      });
      socket.on("close", () => resolve(got));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"limit":1000,"size":10737418240');
  });

  it("serves an allowed origin (compared normalised) with CORS headers, preflight included", async () => {
    const s = await serve({ allowedOrigins: ["HTTPS://App.Example.com:443", "http://localhost:5173"] });
    const preflight = await raw(s.url, "OPTIONS", {
      origin: "https://app.example.com",
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://app.example.com");
    expect(preflight.headers["access-control-allow-headers"]).toContain("mcp-session-id");
    const res = await initialize(s.url, { origin: "http://localhost:5173" });
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(res.headers["access-control-expose-headers"]).toBe("mcp-session-id, mcp-protocol-version");
    expect(res.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // a foreign origin's preflight is refused like its requests
    expect((await raw(s.url, "OPTIONS", { origin: "https://evil.example" })).status).toBe(403);
  });

  it("refuses to start with an allowed origin that is not one, naming it", async () => {
    await expect(serve({ allowedOrigins: ["https://ok.example/path"] })).rejects.toThrow(
      'not an origin: "https://ok.example/path" (an origin has no path, query or credentials)',
    );
    expect(() => normalizeOrigin("*")).toThrow('not an origin: "*"');
    expect(() => normalizeOrigin("ftp://x.example")).toThrow("only http:// and https://");
  });
});

describe("serveHttp: session limits", () => {
  it("closes a session idle past the limit: its own toolset is disposed, its id answers 404", async () => {
    const disposed: string[] = [];
    const logs: string[] = [];
    let expired: () => void = () => {};
    const expiredOnce = new Promise<void>((resolve) => {
      expired = resolve;
    });
    let n = 0;
    const s = await serve({
      sessionIdleMs: 300,
      sessionToolset: () => namedToolset(`client-${++n}`, disposed),
      log: (line) => {
        logs.push(line);
        if (line.includes("expired")) expired();
      },
    });
    const { client, transport } = await connect(s.url);
    expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([
      { type: "text", text: "client-1" },
    ]);
    const id = transport.sessionId!;
    await expiredOnce;
    expect(logs).toContain(`session ${id} expired after 300 ms idle`);
    expect(s.sessionCount()).toBe(0);
    await expect.poll(() => disposed, { timeout: 10_000 }).toEqual(["client-1"]);
    const error = await client.callTool({ name: "whoami", arguments: {} }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: 404 });
    expect(String(error)).toContain(sessionNotFoundMessage(300));
    expect(sessionNotFoundMessage(30 * 60_000)).toBe(
      "Session not found: it was closed, or it expired after 30 min without a request. Start a new session with initialize.",
    );
    await client.close();
  });

  it("an idle limit past Node's timer limit (35,792 minutes and more) does not expire sessions at once", async () => {
    const logs: string[] = [];
    const s = await serve({
      sessionIdleMs: 40_000 * 60_000,
      sessionToolset: () => namedToolset("long"),
      log: (line) => void logs.push(line),
    });
    const { client } = await connect(s.url);
    await client.callTool({ name: "whoami", arguments: {} });
    // Node fires a longer timer after 1 ms; give it far more than that
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logs.filter((l) => l.includes("expired"))).toEqual([]);
    expect(s.sessionCount()).toBe(1);
    expect((await client.callTool({ name: "whoami", arguments: {} })).content).toEqual([
      { type: "text", text: "long" },
    ]);
    await client.close();
  });

  it("never expires a session while a call is running", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = createToolset({
      plugins: [
        definePlugin({
          id: "slow",
          version: "1.0.0",
          tools: [
            {
              factory: {
                name: "slow",
                label: "Slow",
                description: "Waits for the test",
                parameters: Type.Object({}),
                execute: async () => {
                  started();
                  await gate;
                  return { content: [{ type: "text", text: "done" }], details: {} };
                },
              },
            },
          ],
        }),
      ],
    });
    const expired: string[] = [];
    let otherExpired: () => void = () => {};
    const s = await serve(
      {
        // long enough that the busy client's call reaches the server before its session could idle
        // out at load (100 ms failed once beside a build); the idle client's expiry still proves it
        sessionIdleMs: 1_000,
        log: (line) => {
          const id = /^session (\S+) expired/.exec(line)?.[1];
          if (!id) return;
          expired.push(id);
          otherExpired();
        },
      },
      slow,
    );
    const busy = await connect(s.url);
    const call = busy.client.callTool({ name: "slow", arguments: {} });
    await running;
    // a second client that stays idle: its expiry proves an idle period passed during the call
    const idle = await connect(s.url);
    const idleGone = new Promise<void>((resolve) => {
      otherExpired = resolve;
    });
    await idleGone;
    expect(expired).toEqual([idle.transport.sessionId]);
    release();
    expect((await call).content).toEqual([{ type: "text", text: "done" }]);
    expect(expired).not.toContain(busy.transport.sessionId);
    await busy.client.close();
    await idle.client.close();
  });

  it("caps live sessions under concurrent initializes: exactly the limit pass, the rest get 503", async () => {
    const s = await serve({ maxSessions: 3 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => initialize(s.url)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503, 503, 503, 503, 503]);
    const refused = answers.find((a) => a.status === 503)!;
    expect(refused.headers["retry-after"]).toBe("60");
    expect(JSON.parse(refused.body).error).toEqual({
      code: -32000,
      message: tooManySessionsMessage(3, 30 * 60_000),
    });
    expect(tooManySessionsMessage(3, 30 * 60_000)).toBe(
      "Too many MCP sessions: this server holds at most 3 live sessions (clawtools serve --max-sessions). Close a session you no longer use (HTTP DELETE), or retry once an idle one expires (after 30 min without a request).",
    );
    expect(s.sessionCount()).toBe(3);
    // closing one (DELETE) frees its slot for the next client
    const id = answers.find((a) => a.status === 200)!.headers["mcp-session-id"] as string;
    const deleted = await raw(s.url, "DELETE", {
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-06-18",
    });
    expect(deleted.status).toBe(200);
    expect(s.sessionCount()).toBe(2);
    expect((await initialize(s.url)).status).toBe(200);
    expect((await initialize(s.url)).status).toBe(503);
  });

  it("gives each client its own toolset with sessionToolset, disposing it when the client leaves", async () => {
    const disposed: string[] = [];
    const seen: string[] = [];
    let n = 0;
    const s = await serve({
      sessionToolset: ({ sessionId }) => {
        seen.push(sessionId);
        return namedToolset(`client-${++n}`, disposed);
      },
    });
    const a = await connect(s.url);
    const b = await connect(s.url);
    const who = async (c: Client) => (await c.callTool({ name: "whoami", arguments: {} })).content;
    expect(await who(a.client)).toEqual([{ type: "text", text: "client-1" }]);
    expect(await who(b.client)).toEqual([{ type: "text", text: "client-2" }]);
    expect(seen).toEqual([a.transport.sessionId, b.transport.sessionId]);
    await a.transport.terminateSession();
    await expect.poll(() => disposed, { timeout: 10_000 }).toEqual(["client-1"]);
    expect(await who(b.client)).toEqual([{ type: "text", text: "client-2" }]);
    await s.stop();
    expect(disposed).toEqual(["client-1", "client-2"]);
  });

  it("gives each stateless 2026-07-28 client its own toolset, told apart by what it sends; an idle one is disposed", async () => {
    const disposed: string[] = [];
    const seen: string[] = [];
    const s = await serve({
      sessionIdleMs: 1500,
      sessionToolset: ({ sessionId }) => {
        seen.push(sessionId);
        return namedToolset(`stateless-${seen.length}`, disposed);
      },
    });
    const modern = async (name: string, headers?: Record<string, string>) => {
      const client = new ClientV2({ name, version: "1" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(new HttpV2(new URL(s.url), headers ? { requestInit: { headers } } : {}));
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      return client;
    };
    const who = async (c: ClientV2) =>
      (await c.callTool({ name: "whoami", arguments: {} })).content as Array<{ text: string }>;
    const a = await modern("host-a");
    const b = await modern("host-b");
    const a2 = await modern("host-a", { [CLIENT_ID_HEADER]: "window-2" });
    const aAgain = await modern("host-a");
    const [wa, wb, wa2, waAgain] = await Promise.all(
      [a, b, a2, aAgain].map(async (c) => (await who(c))[0]!.text),
    );
    expect(new Set([wa, wb, wa2]).size).toBe(3);
    // the same host, token, address and instance id: the same client
    expect(waAgain).toBe(wa);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of seen) expect(id).toMatch(/^c-[0-9a-f]{24}$/);
    // nobody says goodbye on 2026-07-28: after the idle time each agent session ends
    await expect.poll(() => s.sessionCount(), { timeout: 10_000 }).toBe(0);
    expect(disposed).toEqual(expect.arrayContaining([wa, wb, wa2]));
    expect(disposed).toHaveLength(seen.length);
    // a request after that starts a fresh one
    expect((await who(a))[0]!.text).toBe(`stateless-${seen.length}`);
    expect([wa, wb, wa2]).not.toContain(`stateless-${seen.length}`);
    await Promise.all([a, b, a2, aAgain].map((c) => c.close()));
  });
});
