import { request } from "node:http";
import { createToolset, definePlugin } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type McpHttpServing,
  NOT_INITIALIZED_MESSAGE,
  serveHttp,
  tokenRequiredMessage,
} from "../src/index.js";
import { echoTool } from "./support/echo-tool.js";

function toolset() {
  const state = { disposed: 0 };
  const plugin = definePlugin({
    id: "demo",
    version: "1.0.0",
    dispose: () => {
      state.disposed += 1;
    },
    tools: [{ factory: echoTool() }],
  });
  return { set: createToolset({ plugins: [plugin] }), state };
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "http-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe("serveHttp on loopback", () => {
  const { set, state } = toolset();
  let serving: McpHttpServing;

  beforeAll(async () => {
    serving = await serveHttp(set, { port: 0, signals: false, maxMessageBytes: 256 * 1024 });
  });
  afterAll(async () => {
    await serving.stop();
  });

  it("serves list and call to the SDK's Streamable HTTP client, one session per client", async () => {
    expect(serving.url).toBe(`http://127.0.0.1:${serving.port}/mcp`);
    const a = await connect(serving.url);
    const b = await connect(serving.url);
    expect((await a.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    const r = await b.callTool({ name: "echo", arguments: { text: "over http" } });
    expect(r).toMatchObject({
      content: [{ type: "text", text: "over http" }],
      structuredContent: { length: 9 },
    });
    const unknown = await a.callTool({ name: "nope", arguments: {} }).catch((e: Error) => e);
    expect(unknown).toMatchObject({ code: -32602, message: "MCP error -32602: Unknown tool: nope" });
    await a.close();
    await b.close();
  });

  it("answers a body over the limit with 413 naming it, and the session keeps working", async () => {
    const client = await connect(serving.url);
    const error = await client
      .callTool({ name: "echo", arguments: { text: "q".repeat(300 * 1024) } })
      .catch((e: Error) => e);
    expect((error as { code?: number }).code).toBe(413);
    expect(String(error)).toContain(
      '"code":-32600,"message":"Message too large: 307,295 bytes is over this server\'s limit of 262,144 bytes (0.3 MiB, clawtools serve --max-message-mb).',
    );
    expect((await client.callTool({ name: "echo", arguments: { text: "ok" } })).content).toEqual([
      { type: "text", text: "ok" },
    ]);
    await client.close();
  });

  it("refuses a request that does not start with initialize, and a foreign Host header", async () => {
    const res = await fetch(serving.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32600, message: NOT_INITIALIZED_MESSAGE },
    });
    // a DNS-rebound page reaches the loopback server under its own host name
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        serving.url,
        { method: "POST", headers: { host: "evil.example", "content-type": "application/json" } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(403);
  });

  it("disposes the toolset when stopped", async () => {
    const { set: other, state: otherState } = toolset();
    const s = await serveHttp(other, { port: 0, signals: false });
    const client = await connect(s.url);
    await client.listTools();
    expect(await s.stop()).toBe("stop()");
    expect(otherState.disposed).toBe(1);
    expect(state.disposed).toBe(0);
  });
});

describe("serveHttp off loopback", () => {
  it("refuses to start without a bearer token", async () => {
    const { set } = toolset();
    await expect(serveHttp(set, { port: 0, host: "0.0.0.0", signals: false })).rejects.toThrow(
      tokenRequiredMessage("0.0.0.0"),
    );
    expect(tokenRequiredMessage("0.0.0.0")).toBe(
      "a bearer token is required to serve MCP over HTTP on 0.0.0.0, which is not a loopback address (set --token or CLAWTOOLS_MCP_TOKEN)",
    );
  });

  it("with a token, refuses clients without it (401) and serves those with it", async () => {
    const { set } = toolset();
    const s = await serveHttp(set, { port: 0, host: "0.0.0.0", token: "s3cret-token", signals: false });
    try {
      const url = `http://127.0.0.1:${s.port}/mcp`;
      const unauthorised = "Unauthorized: this server requires Authorization: Bearer <token>";
      await expect(connect(url)).rejects.toMatchObject({
        code: 401,
        message: expect.stringContaining(unauthorised),
      });
      await expect(connect(url, { authorization: "Bearer wrong-token!" })).rejects.toMatchObject({
        code: 401,
        message: expect.stringContaining(unauthorised),
      });
      const client = await connect(url, { authorization: "Bearer s3cret-token" });
      expect((await client.callTool({ name: "echo", arguments: { text: "authorised" } })).content).toEqual([
        { type: "text", text: "authorised" },
      ]);
      await client.close();
    } finally {
      await s.stop();
    }
  });
});
