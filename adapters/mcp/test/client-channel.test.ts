// A tool's channel to the client of its call (@clawtools/core/client), as MCP clients meet it: the
// conformance fixture tools (which ask only through ClientChannel) served by createMcpServer to a
// 2025-era SDK client (questions pushed as server-to-client requests, log messages filtered by
// logging/setLevel) and by serveHttp on 2026-07-28 (input_required rounds with a signed state).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { fileTaskStore } from "@clawtools/core/tasks";
import { plugin as conformance } from "@clawtools/testing/mcp-conformance";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { LOG_LEVEL_META_KEY } from "@modelcontextprotocol/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer, type McpHttpServing, serveHttp, TaskHost, TASKS_EXTENSION } from "../src/index.js";

const text = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");

const ALL = { sampling: {}, elicitation: { form: {} }, roots: {} };

/** The answers a test client gives: a name, a colour, a model's reply, one root. */
const elicitAnswer = (message: string) => ({
  action: "accept" as const,
  content: (message.includes("color") ? { color: "blue" } : { name: "Alice" }) as Record<string, string>,
});
const sampleAnswer = (text: string) => ({
  role: "assistant" as const,
  content: { type: "text" as const, text },
  model: "test-model",
  stopReason: "endTurn",
});
const ROOTS = { roots: [{ uri: "file:///work/root", name: "Root" }] };

describe("a tool's client on a 2025-era connection (server-to-client requests)", () => {
  async function connect(capabilities: Record<string, unknown>) {
    const server = createMcpServer(createToolset({ plugins: [conformance] }));
    const client = new Client({ name: "v1", version: "1.32.2" }, { capabilities });
    const asked: string[] = [];
    const logs: Array<{ level: string; data: unknown }> = [];
    // the 1.32 client takes a handler only for what it declared
    if (capabilities.elicitation)
      client.setRequestHandler(ElicitRequestSchema, async (r) => {
        asked.push(`elicit ${r.params.message}`);
        return elicitAnswer(r.params.message);
      });
    if (capabilities.sampling)
      client.setRequestHandler(CreateMessageRequestSchema, async (r) => {
        asked.push(`sample ${JSON.stringify(r.params.messages[0]?.content)}`);
        return sampleAnswer("Paris");
      });
    if (capabilities.roots)
      client.setRequestHandler(ListRootsRequestSchema, async () => {
        asked.push("roots");
        return ROOTS;
      });
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
      logs.push({ level: n.params.level, data: n.params.data });
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    return { client, asked, logs };
  }

  it("declares logging; asks the client's user, model and roots on the call's own request", async () => {
    const { client, asked } = await connect(ALL);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const call = (name: string, args: Record<string, unknown> = {}) =>
      client.callTool({ name, arguments: args }).then(text);
    expect(await call("test_sampling", { prompt: "Capital of France?" })).toBe("LLM response: Paris");
    expect(await call("test_input_required_result_multi_round")).toBe("Alice likes blue");
    expect(await call("test_input_required_result_multiple_inputs")).toBe(
      "name=Alice, greeting=Paris, roots=1",
    );
    expect(asked).toEqual([
      'sample {"type":"text","text":"Capital of France?"}',
      "elicit Step 1: What is your name?",
      "elicit Step 2: What is your favorite color?",
      "elicit What is your name?",
      'sample {"type":"text","text":"Generate a greeting"}',
      "roots",
    ]);
    await client.close();
  });

  it("sends a tool's log messages at or above the level the client set", async () => {
    const { client, logs } = await connect({});
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await expect.poll(() => logs.length).toBe(3);
    expect(logs.map((l) => l.data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toHaveLength(3);
    await client.close();
  });

  it("a question the client did not declare is refused -32021 naming the capability; nothing is sent", async () => {
    const { client, asked } = await connect({ elicitation: { form: {} } });
    const error = await client
      .callTool({ name: "test_sampling", arguments: { prompt: "x" } })
      .catch((e) => e);
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect(error.message).toContain(
      "this tool needs the client's sampling capability, which this client did not declare: use a client that supports sampling",
    );
    expect(asked).toEqual([]);
    await client.close();
  });
});

describe("a tool's client on MCP 2026-07-28 (input_required rounds)", () => {
  let serving: McpHttpServing;
  beforeAll(async () => {
    const tasks = new TaskHost({
      store: fileTaskStore(path.join(mkdtempSync(path.join(tmpdir(), "clawtools-client-")), "tasks")),
    });
    serving = await serveHttp(createToolset({ plugins: [conformance] }), { port: 0, signals: false, tasks });
  });
  afterAll(() => serving?.stop());

  /** A raw 2026-07-28 tools/call: what the server itself answers, HTTP status included. */
  async function rawCall(
    name: string,
    params: Record<string, unknown> = {},
    capabilities: object = ALL,
    meta: Record<string, unknown> = {},
    method = "tools/call",
  ) {
    const response = await fetch(serving.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": method === "tools/call" ? name : String(params.taskId),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method,
        params: {
          ...(method === "tools/call" ? { name, arguments: {} } : {}),
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            ...meta,
          },
        },
      }),
    });
    const body = await response.text();
    const frames = body
      .split("\n")
      .filter((l) => l.startsWith("data: ") && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)) as Record<string, any>);
    const json = body.startsWith("{") ? JSON.parse(body) : (frames.find((f) => "id" in f) ?? {});
    return {
      status: response.status,
      frames,
      ...(json as {
        result?: Record<string, any>;
        error?: { code: number; message: string; data?: unknown };
      }),
    };
  }

  it("an SDK v2 client answers the rounds with its handlers and gets the tool's result", async () => {
    const client = new ClientV2(
      { name: "v2", version: "2.4.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: ALL },
    );
    client.setRequestHandler("elicitation/create", async (r) =>
      elicitAnswer((r.params as { message: string }).message),
    );
    client.setRequestHandler("sampling/createMessage", async () => sampleAnswer("Hello there"));
    client.setRequestHandler("roots/list", async () => ROOTS);
    await client.connect(new HttpV2(new URL(serving.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const call = (name: string) => client.callTool({ name, arguments: {} }).then(text);
    expect(await call("test_input_required_result_multi_round")).toBe("Alice likes blue");
    expect(await call("test_input_required_result_multiple_inputs")).toBe(
      "name=Alice, greeting=Hello there, roots=1",
    );
    await client.close();
  });

  it("asks every question of a turn in one round, with a signed state; each round's state is new", async () => {
    const first = await rawCall("test_input_required_result_multiple_inputs");
    expect(first.result?.resultType).toBe("input_required");
    expect(Object.keys(first.result?.inputRequests)).toEqual(["user_name", "greeting", "client_roots"]);
    expect(first.result?.inputRequests.client_roots).toEqual({ method: "roots/list", params: {} });
    const round1 = await rawCall("test_input_required_result_multi_round");
    const round2 = await rawCall("test_input_required_result_multi_round", {
      requestState: round1.result?.requestState,
      inputResponses: { step1: { action: "accept", content: { name: "Ada" } } },
    });
    expect(Object.keys(round2.result?.inputRequests)).toEqual(["step2"]);
    expect(round2.result?.requestState).not.toBe(round1.result?.requestState);
    const done = await rawCall("test_input_required_result_multi_round", {
      requestState: round2.result?.requestState,
      inputResponses: { step2: { action: "accept", content: { color: "green" } } },
    });
    expect(text(done.result)).toBe("Ada likes green");
  });

  it("refuses a tampered state, a state of another call, and a state used twice; a malformed answer is asked again", async () => {
    const first = await rawCall("test_input_required_result_tampered_state");
    const state = first.result?.requestState as string;
    const ok = { confirm: { action: "accept", content: { ok: true } } };
    const tampered = await rawCall("test_input_required_result_tampered_state", {
      requestState: `${state}-TAMPERED`,
      inputResponses: ok,
    });
    expect(tampered.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    const other = await rawCall("test_input_required_result_request_state", {
      requestState: state,
      inputResponses: ok,
    });
    expect(other.error?.message).toContain("requestState was issued for another tool call");
    const malformed = await rawCall("test_input_required_result_tampered_state", {
      requestState: state,
      inputResponses: { confirm: 12345 },
    });
    expect(malformed.result?.resultType).toBe("input_required");
    const again = malformed.result?.requestState as string;
    expect(
      text(
        (
          await rawCall("test_input_required_result_tampered_state", {
            requestState: again,
            inputResponses: ok,
          })
        ).result,
      ),
    ).toBe('confirmed: action=accept, content={"ok":true}');
    const replay = await rawCall("test_input_required_result_tampered_state", {
      requestState: again,
      inputResponses: ok,
    });
    expect(replay.error?.message).toContain("requestState was already used");
  });

  it("asks only what the request declared; a tool that needs more is refused -32021 with HTTP 400", async () => {
    const samplingOnly = await rawCall("test_input_required_result_capabilities", {}, { sampling: {} });
    expect(Object.values(samplingOnly.result?.inputRequests).map((r: any) => r.method)).toEqual([
      "sampling/createMessage",
    ]);
    const refused = await rawCall("test_missing_capability", {}, {});
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expect(refused.error?.message).toContain("which this client did not declare");
  });

  it("sends a tool's log messages on the call's stream only at the log level the request set", async () => {
    const logs = (frames: Array<Record<string, any>>) =>
      frames.filter((f) => f.method === "notifications/message").map((f) => f.params.data);
    const quiet = await rawCall("test_logging_tool");
    expect(text(quiet.result)).toBe("Logging test completed: 3 messages sent");
    expect(logs(quiet.frames)).toEqual([]);
    const info = await rawCall("test_logging_tool", {}, ALL, { [LOG_LEVEL_META_KEY]: "info" });
    expect(logs(info.frames)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    const errorsOnly = await rawCall("test_logging_tool", {}, ALL, { [LOG_LEVEL_META_KEY]: "error" });
    expect(logs(errorsOnly.frames)).toEqual([]);
  });

  it("a task tool that asks first: input_required rounds, then the task, whose result has the answer", async () => {
    const tasks = { extensions: { [TASKS_EXTENSION]: {} } };
    const caps = { ...ALL, ...tasks };
    const round1 = await rawCall("test_tool_with_task", {}, caps);
    expect(round1.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: {} } });
    expect(round1.result).not.toHaveProperty("taskId");
    const round2 = await rawCall(
      "test_tool_with_task",
      {
        requestState: round1.result?.requestState,
        inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      },
      caps,
    );
    expect(round2.result).toMatchObject({ resultType: "task", status: "working" });
    expect(round2.result).not.toHaveProperty("requestState");
    const taskId = round2.result?.taskId as string;
    await expect
      .poll(async () => (await rawCall("", { taskId }, caps, {}, "tasks/get")).result?.status)
      .toBe("completed");
    const done = await rawCall("", { taskId }, caps, {}, "tasks/get");
    expect(text(done.result?.result)).toBe("Hello from the task, Alice!");
  });
});
