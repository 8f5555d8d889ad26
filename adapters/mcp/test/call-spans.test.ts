// Every kind of tools/call leaves the span the MCP semantic conventions describe, seen through an
// OpenTelemetry SDK with an in-memory exporter and the MCP SDK client: the SDK server's handler,
// stdio's own fast path, a call made as a task, and one whose host sent its trace context.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { journalFor } from "@clawtools/core/journal";
import { fileTaskStore } from "@clawtools/core/tasks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpServer, LineTransport, serveHttp } from "../src/index.js";
import { StdioFront } from "../src/stdio-front.js";
import { TaskHost } from "../src/task-host.js";
import { gatedToolset } from "./support/gated-tool.js";
import { installRecorder } from "./support/span-recorder.js";
import { streamClientTransport } from "./support/stream-client.js";
import { tracedToolset } from "./support/traced-tools.js";

const HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const HOST_SPAN = "00f067aa0ba902b7";
const traceMeta = { traceparent: `00-${HOST_TRACE}-${HOST_SPAN}-01`, tracestate: "rojo=00f067aa0ba902b7" };

const root = mkdtempSync(path.join(tmpdir(), "clawtools-mcp-spans-"));
const workspaceDir = path.join(root, "ws");
const stateDir = path.join(root, "state");
const recorder = installRecorder();
afterAll(async () => {
  await recorder.uninstall();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => recorder.reset());

/** The one span of a call, once it has ended. */
async function spanOf(name: string): Promise<ReadableSpan> {
  await expect.poll(() => recorder.named(name).length, { timeout: 10_000 }).toBe(1);
  return recorder.named(name)[0]!;
}

/** What every tools/call span carries, whatever its outcome. */
const callAttributes = (tool: string, transport?: "pipe") => ({
  "mcp.method.name": "tools/call",
  "gen_ai.tool.name": tool,
  "gen_ai.operation.name": "execute_tool",
  ...(transport ? { "network.transport": transport } : {}),
});

describe("tools/call spans through the SDK server", () => {
  let client: Client;
  beforeAll(async () => {
    await import("node:fs/promises").then((fs) => fs.mkdir(workspaceDir, { recursive: true }));
    const server = createMcpServer(tracedToolset(workspaceDir, stateDir));
    client = new Client({ name: "spans", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterAll(() => client.close());

  it("a successful call: `tools/call greet`, kind SERVER, the conventions' attributes, the policy's allow", async () => {
    await client.callTool({ name: "greet", arguments: { who: "ada" } });
    const span = await spanOf("tools/call greet");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({ ...callAttributes("greet"), "clawtools.policy": "allow" });
    expect(span.attributes["jsonrpc.request.id"]).toMatch(/^\d+$/);
    expect(span.attributes["error.type"]).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.parentSpanContext).toBeUndefined();
  });

  it("a tool's own error: error.type tool_error, the thrown class, status ERROR", async () => {
    const result = await client.callTool({ name: "refuse", arguments: { who: "ada" } });
    expect(result.isError).toBe(true);
    const span = await spanOf("tools/call refuse");
    expect(span.attributes).toMatchObject({
      ...callAttributes("refuse"),
      "error.type": "tool_error",
      "clawtools.error.class": "ToolInputError",
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("a call a hook refuses: tool_error with the policy's deny and its reason", async () => {
    expect((await client.callTool({ name: "guarded", arguments: { who: "ada" } })).isError).toBe(true);
    expect((await spanOf("tools/call guarded")).attributes).toMatchObject({
      "error.type": "tool_error",
      "clawtools.policy": "deny",
      "clawtools.policy.reason": "guarded is off today",
    });
  });

  it("a tool the policy denies: the JSON-RPC error's code as error.type, the deny and which layer", async () => {
    await expect(client.callTool({ name: "secret", arguments: { who: "ada" } })).rejects.toThrow(
      "Unknown tool: secret",
    );
    const span = await spanOf("tools/call secret");
    expect(span.attributes).toMatchObject({
      ...callAttributes("secret"),
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
      "clawtools.policy": "deny",
      "clawtools.policy.reason": "denied by tools.deny",
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "Unknown tool: secret" });
  });

  it("a call that cannot be carried out: its JSON-RPC error code", async () => {
    await expect(client.callTool({ name: "broken", arguments: { who: "ada" } })).rejects.toThrow(
      "The store is gone.",
    );
    expect((await spanOf("tools/call broken")).attributes).toMatchObject({
      "error.type": "-32603",
      "rpc.response.status_code": "-32603",
    });
  });

  it("a host's traceparent and tracestate in params._meta: the span is the host span's child", async () => {
    await client.callTool({ name: "greet", arguments: { who: "ada" }, _meta: traceMeta });
    const span = await spanOf("tools/call greet");
    expect(span.spanContext().traceId).toBe(HOST_TRACE);
    expect(span.parentSpanContext).toMatchObject({ traceId: HOST_TRACE, spanId: HOST_SPAN, isRemote: true });
    expect(span.spanContext().traceState?.get("rojo")).toBe(HOST_SPAN);
  });

  it("a journalled change: the undo journal's entry id", async () => {
    await client.callTool({ name: "save", arguments: { who: "notes" } });
    const span = await spanOf("tools/call save");
    const { entries } = await journalFor(workspaceDir, stateDir).list();
    expect(entries.at(-1)?.tool).toBe("save");
    expect(span.attributes["clawtools.journal.id"]).toBe(entries.at(-1)!.id);
  });

  it("the duration histogram mcp.server.operation.duration, in seconds, with error.type on failures", async () => {
    const [metric] = await recorder.histogram("mcp.server.operation.duration");
    expect(metric?.descriptor.unit).toBe("s");
    const points = metric!.dataPoints as Array<{
      attributes: Record<string, unknown>;
      value: { count: number };
    }>;
    const refused = points.find((p) => p.attributes["gen_ai.tool.name"] === "refuse");
    expect(refused?.attributes).toEqual({ ...callAttributes("refuse"), "error.type": "tool_error" });
    expect(points.find((p) => p.attributes["gen_ai.tool.name"] === "greet")?.value.count).toBe(2);
  });
});

describe("an approval asked of the client", () => {
  it("lands on the call's span as clawtools.approval", async () => {
    const ran: string[] = [];
    const server = createMcpServer(gatedToolset({ workspaceDir, stateDir: path.join(root, "gated"), ran }));
    const client = new Client(
      { name: "spans", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { decision: "allow-once" },
    }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    await client.callTool({ name: "gated_run", arguments: { command: "make" } });
    expect(ran).toEqual(["make"]);
    expect((await spanOf("tools/call gated_run")).attributes["clawtools.approval"]).toBe("allow-once");
    await client.close();
  });
});

describe("stdio: the front's own calls and the SDK's carry the same span", () => {
  it("plain calls (no SDK load) and a call with a host's trace context (the SDK's)", async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const loads: number[] = [];
    const front = new StdioFront(
      new LineTransport(toServer, fromServer),
      tracedToolset(workspaceDir, stateDir),
      {},
      () => {
        loads.push(1);
        return import("../src/stdio-sdk.js");
      },
    );
    void front.start();
    const client = new Client({ name: "spans", version: "1.0.0" });
    await client.connect(streamClientTransport(toServer, fromServer));
    await client.callTool({ name: "greet", arguments: { who: "ada" } });
    await client.callTool({ name: "refuse", arguments: { who: "ada" } });
    expect(loads).toEqual([]);
    expect((await spanOf("tools/call greet")).attributes).toMatchObject({
      ...callAttributes("greet", "pipe"),
      "clawtools.policy": "allow",
      "jsonrpc.request.id": expect.stringMatching(/^\d+$/),
    });
    expect((await spanOf("tools/call refuse")).attributes).toMatchObject({
      ...callAttributes("refuse", "pipe"),
      "error.type": "tool_error",
      "clawtools.error.class": "ToolInputError",
    });
    recorder.reset();
    await client.callTool({ name: "greet", arguments: { who: "ada" }, _meta: traceMeta });
    expect(loads).toEqual([1]);
    const span = await spanOf("tools/call greet");
    expect(span.attributes).toMatchObject({
      ...callAttributes("greet", "pipe"),
      "clawtools.policy": "allow",
    });
    expect(span.parentSpanContext).toMatchObject({ traceId: HOST_TRACE, spanId: HOST_SPAN });
    await client.close();
    await front.close();
  });
});

describe("a call made as a task", () => {
  it("the call's span carries the task id; the task's run is an execute_tool span under it", async () => {
    const host = new TaskHost({ store: fileTaskStore(path.join(root, "tasks")) });
    const server = createMcpServer(tracedToolset(workspaceDir, stateDir), { tasks: host });
    const client = new Client({ name: "spans", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const { CreateTaskResultSchema, CallToolResultSchema } = await import(
      "@modelcontextprotocol/sdk/types.js"
    );
    const { task } = await client.request(
      {
        method: "tools/call",
        params: { name: "slow", arguments: { who: "nobody" }, task: { ttl: 60_000 }, _meta: traceMeta },
      },
      CreateTaskResultSchema,
    );
    const result = await client.request(
      { method: "tasks/result", params: { taskId: task.taskId } },
      CallToolResultSchema,
    );
    expect(result.isError).toBe(true);
    const call = await spanOf("tools/call slow");
    expect(call.attributes).toMatchObject({ ...callAttributes("slow"), "clawtools.task.id": task.taskId });
    expect(call.attributes["error.type"]).toBeUndefined();
    expect(call.parentSpanContext?.spanId).toBe(HOST_SPAN);
    const run = await spanOf("execute_tool slow");
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(run.spanContext().traceId).toBe(HOST_TRACE);
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "slow",
      "clawtools.task.id": task.taskId,
      "error.type": "tool_error",
    });
    await client.close();
    await host.close();
  });
});

describe("Streamable HTTP", () => {
  it("the span names the client's session and the transport", async () => {
    const serving = await serveHttp(tracedToolset(workspaceDir, stateDir), { port: 0, signals: false });
    const client = new Client({ name: "spans", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(serving.url));
    await client.connect(transport);
    await client.callTool({ name: "greet", arguments: { who: "ada" } });
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await spanOf("tools/call greet")).attributes).toMatchObject({
      ...callAttributes("greet"),
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp.session.id": transport.sessionId,
    });
    await client.close();
    await serving.stop();
  });
});
