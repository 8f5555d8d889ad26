import { PassThrough } from "node:stream";
import { type AnyAgentTool, Type } from "@clawtools/core";
import type { ToolMeta } from "@clawtools/core/catalog";
import { parseJSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { serveStdio as sdkStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer, LineTransport, type McpToolsetLike, serveStdio } from "../src/index.js";
import { isJsonRpcMessage } from "../src/jsonrpc-shape.js";
import { LEGACY_PROTOCOL_VERSIONS } from "../src/stdio-opening.js";

type Message = Record<string, unknown> & { id?: unknown; method?: string; result?: unknown; error?: unknown };

/** Tools of every listing shape: labels, catalog hints, a core outputSchema, a plugin's tool. */
function toolsetOf(calls: string[] = []) {
  const tool = (name: string, label?: string): AnyAgentTool => ({
    name,
    ...(label ? { label } : {}),
    description: `The ${name} tool`,
    parameters: Type.Object({ text: Type.Optional(Type.String({ description: "what to echo" })) }),
    execute: async (_id, params) => {
      calls.push(String((params as { text?: string }).text));
      return {
        content: [{ type: "text", text: `${name}:${(params as { text?: string }).text}` }],
        details: {},
      };
    },
  });
  const meta: Record<string, ToolMeta> = {
    read: { source: "core", sectionId: "fs", readOnly: true, description: "Read file contents" } as ToolMeta,
    web_fetch: { source: "core", sectionId: "web", readOnly: true } as ToolMeta,
    echo: { source: "plugin", pluginId: "third-party" } as ToolMeta,
  };
  let tools = [tool("read"), tool("web_fetch"), tool("echo", "Echo it")];
  const listeners = new Set<() => void>();
  return {
    get tools() {
      return tools;
    },
    meta: (name: string) => meta[name],
    onToolsChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add(name: string) {
      tools = [...tools, tool(name)];
      for (const l of listeners) l();
    },
  };
}

const OPTIONS = { name: "front-test", version: "9.9.9", instructions: "Use the tools." };
const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** A stdio session over streams: the front (`serveStdio`), or the SDK server alone (the reference). */
async function session(kind: "front" | "sdk", toolset: McpToolsetLike) {
  const input = new PassThrough();
  const output = new PassThrough();
  if (kind === "front") {
    const serving = await serveStdio(toolset, { ...OPTIONS, input, output, signals: false });
    open.push(async () => void (await serving.stop()));
  } else {
    const transport = new LineTransport(input, output);
    transport.parseMessage = parseJSONRPCMessage;
    const handle = sdkStdio(() => createMcpServer(toolset, OPTIONS), { transport });
    open.push(() => handle.close());
  }
  const got: Message[] = [];
  let buffer = "";
  const waiting = new Set<() => void>();
  output.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      got.push(JSON.parse(buffer.slice(0, nl)) as Message);
      buffer = buffer.slice(nl + 1);
    }
    for (const wake of waiting) wake();
    waiting.clear();
  });
  const until = async (match: (m: Message) => boolean) => {
    for (;;) {
      const found = got.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiting.add(resolve));
    }
  };
  return {
    got,
    send: (...messages: unknown[]) => input.write(messages.map((m) => `${JSON.stringify(m)}\n`).join("")),
    reply: (id: unknown) => until((m) => m.id === id && ("result" in m || "error" in m)),
    until,
  };
}

const initialize = (id: number, protocolVersion: string, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "raw", version: "1" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const request = (id: number, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params ? { params } : {}),
});

describe("serveStdio's front answers the opening exactly as the SDK server does", () => {
  it("negotiates from the SDK's own list of 2025-era revisions", () => {
    expect(LEGACY_PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < "2026-07-28"));
  });

  for (const version of ["2025-06-18", "2025-11-25", "2025-03-26", "2024-11-05", "1999-01-01"])
    it(`initialize ${version}, ping, tools/list (with and without a cursor): the SDK's answers`, async () => {
      const answers = async (kind: "front" | "sdk") => {
        const s = await session(kind, toolsetOf());
        s.send(
          initialize(1, version, { roots: { listChanged: true }, elicitation: {} }),
          initialized,
          request(2, "ping"),
          request(3, "tools/list"),
          request(4, "tools/list", { cursor: "anything" }),
        );
        return Promise.all([1, 2, 3, 4].map(s.reply));
      };
      const [front, sdk] = [await answers("front"), await answers("sdk")];
      expect(front).toEqual(sdk);
      expect((front[0]!.result as { protocolVersion: string }).protocolVersion).toBe(
        version === "1999-01-01" ? "2025-11-25" : version,
      );
    });

  it("announces a tool change before the hand-over as the SDK server does", async () => {
    const announce = async (kind: "front" | "sdk") => {
      const toolset = toolsetOf();
      const s = await session(kind, toolset);
      s.send(initialize(1, "2025-11-25"), initialized);
      await s.reply(1);
      toolset.add("later");
      const note = await s.until((m) => m.method !== undefined);
      s.send(request(2, "tools/list"));
      return { note, listed: (await s.reply(2)).result };
    };
    expect(await announce("front")).toEqual(await announce("sdk"));
  });

  it("leaves what it is not sure of to the SDK: its errors are the SDK's", async () => {
    const refusals = async (kind: "front" | "sdk") => {
      const s = await session(kind, toolsetOf());
      // before initialize, then a malformed initialize, then a good one and a bad listing
      s.send(request(1, "tools/list"));
      await s.reply(1);
      s.send(initialize(2, "2025-11-25", { roots: { listChanged: "yes" } }));
      await s.reply(2);
      s.send(initialize(3, "2025-11-25"), request(4, "tools/list", { cursor: 7 }));
      return Promise.all([1, 2, 3, 4].map(s.reply));
    };
    const [front, sdk] = [await refusals("front"), await refusals("sdk")];
    expect(front).toEqual(sdk);
    expect(front[0]!.error).toBeDefined();
  });

  it("2026-07-28 (server/discover, per-request envelope) is the SDK's from the first message", async () => {
    const envelope = {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    };
    const modern = async (kind: "front" | "sdk") => {
      const s = await session(kind, toolsetOf());
      s.send(request(1, "server/discover", envelope), request(2, "tools/list", envelope));
      return Promise.all([1, 2].map(s.reply));
    };
    const [front, sdk] = [await modern("front"), await modern("sdk")];
    expect(front).toEqual(sdk);
    expect(JSON.stringify(front[0]!.result)).toContain("2026-07-28");
  });
});

describe("the hand-over to the SDK server", () => {
  it("keeps the order of messages that arrive while the SDK loads, and the negotiated state", async () => {
    const calls: string[] = [];
    const s = await session("front", toolsetOf(calls));
    // a client the server may ask for approvals: its calls are the SDK's (plain ones the front runs)
    s.send(initialize(1, "2025-06-18", { elicitation: {} }), initialized, request(2, "tools/list"));
    await s.reply(2);
    // one chunk: the first call loads the SDK, the rest are held meanwhile
    s.send(
      ...["a", "b", "c"].map((text, i) =>
        request(10 + i, "tools/call", { name: "echo", arguments: { text } }),
      ),
      request(13, "ping"),
      { jsonrpc: "2.0", id: 14, method: "tools/call", params: { name: "nope", arguments: {} } },
    );
    const answers = await Promise.all([10, 11, 12, 13, 14].map(s.reply));
    expect(calls).toEqual(["a", "b", "c"]);
    expect(
      answers.slice(0, 3).map((a) => (a.result as { content: Array<{ text: string }> }).content[0]!.text),
    ).toEqual(["echo:a", "echo:b", "echo:c"]);
    expect(answers[3]!.result).toEqual({});
    expect(answers[4]!.error).toMatchObject({ code: -32602 });
    // the replayed initialize was answered once, to the client, by the front
    expect(s.got.filter((m) => m.id === 1)).toHaveLength(1);
  });

  it("a client with roots is asked for them by the SDK server once initialised", async () => {
    const toolset = toolsetOf();
    const input = new PassThrough();
    const output = new PassThrough();
    const seen: string[][] = [];
    const serving = await serveStdio(toolset, {
      input,
      output,
      signals: false,
      onRoots: (roots) => void seen.push(roots.map((r) => r.path)),
    });
    open.push(async () => void (await serving.stop()));
    const asked = new Promise<Message>((resolve) =>
      output.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
          const m = JSON.parse(line) as Message;
          if (m.method === "roots/list") resolve(m);
        }
      }),
    );
    input.write(`${JSON.stringify(initialize(1, "2025-11-25", { roots: { listChanged: true } }))}\n`);
    input.write(`${JSON.stringify(initialized)}\n`);
    const ask = await asked;
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { roots: [{ uri: "file:///tmp" }] } })}\n`,
    );
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual([["/tmp"]]);
  });
});

describe("the JSON-RPC shape check stdio reads with before the SDK loads", () => {
  const corpus: unknown[] = [
    { jsonrpc: "2.0", id: 1, method: "m" },
    { jsonrpc: "2.0", id: "x", method: "m", params: { a: 1, _meta: { progressToken: 3 } } },
    { jsonrpc: "2.0", id: 1.5, method: "m" },
    { jsonrpc: "2.0", id: 2 ** 60, method: "m" },
    { jsonrpc: "2.0", id: null, method: "m" },
    { jsonrpc: "1.0", id: 1, method: "m" },
    { jsonrpc: "2.0", id: 1, method: "m", extra: true },
    { jsonrpc: "2.0", id: 1, method: "m", params: [1] },
    { jsonrpc: "2.0", id: 1, method: "m", params: null },
    { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { progressToken: 1.5 } } },
    { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: "x" } },
    { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { "io.modelcontextprotocol/related-task": {} } } },
    { jsonrpc: "2.0", method: "n" },
    { jsonrpc: "2.0", method: 5 },
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "2.0", id: 1, result: [] },
    { jsonrpc: "2.0", id: 1, result: { _meta: 1 } },
    { jsonrpc: "2.0", id: 1, error: { code: -1, message: "no" } },
    { jsonrpc: "2.0", error: { code: -1, message: "no", data: [1] } },
    { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "no" } },
    { jsonrpc: "2.0", id: 1, error: { code: 1 } },
    { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "both" } },
    { jsonrpc: "2.0" },
    [],
    "text",
    null,
  ];
  it("accepts exactly what the SDK's parser accepts", () => {
    const sdk = (raw: unknown) => {
      try {
        parseJSONRPCMessage(raw);
        return true;
      } catch {
        return false;
      }
    };
    expect(corpus.map(isJsonRpcMessage)).toEqual(corpus.map(sdk));
  });
});
