import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeParamHeader, headerParamsOf } from "../src/http-param-headers.js";
import { type McpHttpServing, serveHttp } from "../src/index.js";

// SEP-2243 (2026-07-28): a parameter marked `x-mcp-header` travels in an `Mcp-Param-*` header too;
// serveHttp refuses a tools/call whose header disagrees with its body (400, -32020) before it runs.

const calls: unknown[] = [];
const routed = {
  name: "routed",
  description: "Answers with its arguments",
  parameters: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      shard: { type: "integer", "x-mcp-header": "Shard" },
      note: { type: "string" },
    },
    required: ["region"],
  },
  execute: async (_id: string, params: unknown) => {
    calls.push(params);
    return { content: [{ type: "text" as const, text: JSON.stringify(params) }], details: undefined };
  },
};

let serving: McpHttpServing;
beforeAll(async () => {
  serving = await serveHttp({ tools: [routed] }, { port: 0, signals: false });
});
afterAll(() => serving.stop());

const base64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;

async function call(args: Record<string, unknown>, headers: Record<string, string>) {
  const response = await fetch(serving.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "routed",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: "routed",
        arguments: args,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return {
    status: response.status,
    body: JSON.parse(json) as { id?: number; result?: unknown; error?: { code: number; message: string } },
  };
}

describe("Mcp-Param-* headers (SEP-2243)", () => {
  it("finds the x-mcp-header parameters and decodes header values as the SEP says", () => {
    expect(headerParamsOf(routed.parameters).map((p) => p.header)).toEqual(["Region", "Shard"]);
    expect(decodeParamHeader(base64("Grüße"))).toBe("Grüße");
    expect(decodeParamHeader("=?base64?SGVsbG8?=")).toBeUndefined();
    expect(decodeParamHeader("=?base64?SGVs!!!bG8=?=")).toBeUndefined();
    expect(decodeParamHeader("SGVsbG8=")).toBe("SGVsbG8=");
    expect(decodeParamHeader("=?base64?SGVsbG8=")).toBe("=?base64?SGVsbG8=");
  });

  it("runs a call whose headers agree with its body, literal or Base64, numbers compared as numbers", async () => {
    calls.length = 0;
    for (const [args, headers] of [
      [{ region: "eu-west" }, { "mcp-param-region": "eu-west" }],
      [{ region: "Hello" }, { "Mcp-Param-Region": base64("Hello") }],
      [
        { region: "x", shard: 42 },
        { "mcp-param-region": "x", "mcp-param-shard": "42.0" },
      ],
    ] as const) {
      const { status, body } = await call(args, headers);
      expect([status, body.error]).toEqual([200, undefined]);
    }
    expect(calls).toHaveLength(3);
  });

  it("refuses, before the tool runs, a header that is missing, not Base64, or says something else", async () => {
    calls.length = 0;
    const cases: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      [{ region: "eu" }, {}, 'the body carries region="eu" but the Mcp-Param-Region header is absent'],
      [
        { region: "Hello" },
        { "mcp-param-region": "=?base64?SGVsbG8?=" },
        "the Mcp-Param-Region header is not valid Base64",
      ],
      [
        { region: "eu" },
        { "mcp-param-region": "us" },
        'the Mcp-Param-Region header says "us" but the body carries region="eu"',
      ],
      [
        { region: "eu", shard: 1 },
        { "mcp-param-region": "eu", "mcp-param-shard": "2" },
        'the Mcp-Param-Shard header says "2" but the body carries shard=1',
      ],
    ];
    for (const [args, headers, reason] of cases) {
      const { status, body } = await call(args, headers);
      expect(status).toBe(400);
      expect(body.id).toBe(7);
      expect(body.error?.code).toBe(-32020);
      expect(body.error?.message).toContain(`Bad Request: the request headers and body disagree: ${reason}`);
    }
    expect(calls).toEqual([]);
  });

  it("lists the parameter with its x-mcp-header, and the SDK's own client sends the header", async () => {
    const client = new ClientV2({ name: "host", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new HttpV2(new URL(serving.url)));
    const [listed] = (await client.listTools()).tools;
    expect(listed?.inputSchema.properties?.region).toEqual({ type: "string", "x-mcp-header": "Region" });
    calls.length = 0;
    const result = await client.callTool({ name: "routed", arguments: { region: "ap-south" } });
    expect(result.isError).toBeFalsy();
    expect(calls).toEqual([{ region: "ap-south" }]);
    await client.close();
  });
});
