import { PassThrough } from "node:stream";
import { type AnyAgentTool, ToolInputError, ToolProtocolError, Type } from "@clawtools/core";
import { currentClient, requireClient } from "@clawtools/core/client";
import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { serveStdio as sdkStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer, LineTransport, type McpToolsetLike } from "../src/index.js";
import { StdioFront } from "../src/stdio-front.js";

type Message = Record<string, unknown> & { id?: unknown; method?: string; result?: unknown; error?: unknown };

/** Tools whose answers cover what a call result carries: text, details, an outputSchema, failures. */
function toolset(aborted: string[] = []): McpToolsetLike {
  const text = Type.Object({ text: Type.Optional(Type.String()) });
  const tools: AnyAgentTool[] = [
    {
      name: "echo",
      description: "echo",
      parameters: text,
      execute: async (_id, p) => ({
        content: [{ type: "text", text: `echo:${(p as { text?: string }).text}` }],
        details: { echoed: (p as { text?: string }).text ?? null },
      }),
    },
    {
      name: "shaped",
      description: "a result with an outputSchema it breaks",
      parameters: text,
      outputSchema: Type.Object({ count: Type.Number() }),
      execute: async () => ({ content: [{ type: "text", text: "shaped" }], details: { count: "many" } }),
    } as AnyAgentTool,
    {
      name: "refuse",
      description: "throws",
      parameters: text,
      execute: async () => {
        throw new ToolInputError("Not this time: pass text.");
      },
    },
    {
      name: "broken",
      description: "cannot be carried out",
      parameters: text,
      execute: async () => {
        throw new ToolProtocolError("The store is gone.");
      },
    },
    {
      name: "logs",
      description: "logs to its client, then answers",
      parameters: text,
      execute: async () => {
        requireClient("logs").log("info", "one");
        requireClient("logs").log("warning", { two: 2 }, "fixture");
        return { content: [{ type: "text", text: "logged" }] };
      },
    },
    {
      name: "asks_model",
      description: "asks the client's model",
      parameters: text,
      execute: async () => {
        const answer = await requireClient("asks_model").sample({ messages: [], maxTokens: 1 });
        return { content: [{ type: "text", text: String(answer.content.text) }] };
      },
    },
    {
      name: "wait",
      description: "runs until aborted",
      parameters: text,
      execute: (_id, _p, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener("abort", () => {
            aborted.push(String(signal.reason));
            reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
          }),
        ),
    },
  ];
  return { tools };
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** A stdio session: the front (counting SDK loads), or the SDK server alone (the reference). */
function session(kind: "front" | "sdk", tools: McpToolsetLike) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new LineTransport(input, output);
  const sdkLoads: number[] = [];
  if (kind === "front") {
    const front = new StdioFront(transport, tools, {}, () => {
      sdkLoads.push(1);
      return import("../src/stdio-sdk.js");
    });
    void front.start();
    open.push(() => front.close());
  } else {
    transport.parseMessage = parseJSONRPCMessage;
    const handle = sdkStdio(() => createMcpServer(tools), { transport });
    open.push(() => handle.close());
  }
  const got: Message[] = [];
  let buffer = "";
  output.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      got.push(JSON.parse(buffer.slice(0, nl)) as Message);
      buffer = buffer.slice(nl + 1);
    }
  });
  return {
    got,
    sdkLoads,
    send: (...messages: unknown[]) => input.write(messages.map((m) => `${JSON.stringify(m)}\n`).join("")),
    reply: async (id: unknown) => {
      await expect.poll(() => got.some((m) => m.id === id), { timeout: 10_000 }).toBe(true);
      return got.find((m) => m.id === id)!;
    },
  };
}

const initialize = (capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const call = (id: number, name: string, args?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, ...(args ? { arguments: args } : {}) },
});

describe("stdio's front runs a plain client's tools/call itself", () => {
  it("answers as the SDK server does (text, details, a broken outputSchema, a throw, a protocol error) without loading the SDK", async () => {
    const calls = [
      call(2, "echo", { text: "hi" }),
      call(3, "echo"),
      call(4, "shaped"),
      call(5, "refuse"),
      call(6, "broken"),
    ];
    const answers = async (kind: "front" | "sdk") => {
      const s = session(kind, toolset());
      s.send(initialize(), initialized, ...calls);
      return { answers: await Promise.all([2, 3, 4, 5, 6].map(s.reply)), sdkLoads: s.sdkLoads };
    };
    const front = await answers("front");
    const sdk = await answers("sdk");
    expect(front.answers).toEqual(sdk.answers);
    expect(front.sdkLoads).toEqual([]);
    expect(JSON.stringify(front.answers[3])).toContain("Not this time: pass text.");
    expect((front.answers[2]!.result as { isError?: boolean }).isError).toBe(true);
    expect(front.answers[4]!.error).toMatchObject({ code: -32603, message: "The store is gone." });
  });

  it("gives its calls the client: log messages as the SDK sends them, a question it cannot ask refused -32021 alike", async () => {
    const answers = async (kind: "front" | "sdk") => {
      const s = session(kind, toolset());
      s.send(initialize(), initialized, call(2, "logs"), call(3, "asks_model"));
      const replies = await Promise.all([2, 3].map(s.reply));
      return { got: s.got.filter((m) => m.id !== 1), replies, sdkLoads: s.sdkLoads };
    };
    const front = await answers("front");
    const sdk = await answers("sdk");
    expect(front.got).toEqual(sdk.got);
    expect(front.sdkLoads).toEqual([]);
    expect(front.got.filter((m) => m.method === "notifications/message").map((m) => m.params)).toEqual([
      { level: "info", data: "one" },
      { level: "warning", data: { two: 2 }, logger: "fixture" },
    ]);
    expect(front.replies[1]!.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("a tool's prepare runs before the call's context (no client yet), once; a failing prepare leaves the call its own error", async () => {
    for (const kind of ["front", "sdk"] as const) {
      const seen: string[] = [];
      let loaded = false;
      const lazy: AnyAgentTool = {
        name: "lazy",
        description: "loads on its first call",
        parameters: Type.Object({}),
        prepare: () => {
          if (loaded) return undefined;
          seen.push(`prepare, client: ${currentClient() ? "yes" : "none"}`);
          return Promise.resolve().then(() => {
            loaded = true;
          });
        },
        execute: async () => {
          seen.push(`execute, loaded: ${loaded}, client: ${currentClient() ? "yes" : "none"}`);
          return { content: [{ type: "text", text: "ran" }] };
        },
      };
      const failing: AnyAgentTool = {
        name: "unloadable",
        description: "cannot load",
        parameters: Type.Object({}),
        prepare: () => Promise.reject(new Error("the section is not installed")),
        execute: async () => {
          throw new ToolInputError("unloadable: the section is not installed; install it");
        },
      };
      const s = session(kind, { tools: [lazy, failing] });
      s.send(initialize(), initialized, call(2, "lazy"));
      expect(JSON.stringify((await s.reply(2)).result)).toContain("ran");
      s.send(call(3, "lazy"), call(4, "unloadable"));
      expect(JSON.stringify((await s.reply(3)).result)).toContain("ran");
      const refused = await s.reply(4);
      expect((refused.result as { isError?: boolean }).isError).toBe(true);
      expect(JSON.stringify(refused.result)).toContain("the section is not installed; install it");
      expect(seen).toEqual([
        "prepare, client: none",
        "execute, loaded: true, client: yes",
        "execute, loaded: true, client: yes",
      ]);
    }
  });

  it("a cancelled call is aborted and never answered; the calls after it are", async () => {
    const aborted: string[] = [];
    const s = session("front", toolset(aborted));
    s.send(initialize(), initialized, call(2, "wait"));
    s.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "user" } });
    s.send(call(3, "echo", { text: "after" }));
    expect(JSON.stringify((await s.reply(3)).result)).toContain("echo:after");
    expect(aborted).toEqual(["user"]);
    expect(s.got.some((m) => m.id === 2)).toBe(false);
    expect(s.sdkLoads).toEqual([]);
  });

  it("leaves to the SDK what it does not run: unknown tools, progress tokens, clients that approve", async () => {
    const unknown = session("front", toolset());
    unknown.send(initialize(), initialized, call(2, "nope"));
    expect((await unknown.reply(2)).error).toMatchObject({ code: -32602 });
    expect(unknown.sdkLoads).toEqual([1]);

    const progress = session("front", toolset());
    progress.send(initialize(), initialized, {
      ...call(2, "echo", { text: "p" }),
      params: { name: "echo", arguments: { text: "p" }, _meta: { progressToken: 7 } },
    });
    expect(JSON.stringify((await progress.reply(2)).result)).toContain("echo:p");
    expect(progress.sdkLoads).toEqual([1]);

    const approving = session("front", toolset());
    approving.send(initialize({ elicitation: {} }), initialized, call(2, "echo", { text: "e" }));
    expect(JSON.stringify((await approving.reply(2)).result)).toContain("echo:e");
    expect(approving.sdkLoads).toEqual([1]);

    // a client a tool may ask (its model here) has its calls run by the SDK server
    const sampling = session("front", toolset());
    sampling.send(initialize({ sampling: {} }), initialized, call(2, "echo", { text: "s" }));
    expect(JSON.stringify((await sampling.reply(2)).result)).toContain("echo:s");
    expect(sampling.sdkLoads).toEqual([1]);
  });
});
