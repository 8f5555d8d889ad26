import { PassThrough } from "node:stream";
import { createToolset, definePlugin, Type } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  LineTransport,
  MCP_PACKAGE_VERSION,
  type McpServing,
  messageTooLargeMessage,
  NOT_INITIALIZED_MESSAGE,
  serveStdio,
  truncatedResultNotice,
} from "../src/index.js";
import { echoTool } from "./support/echo-tool.js";

const text = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");

/** A toolset whose plugin records dispose, with tools for each behaviour under test. */
function demo() {
  const state = { disposed: 0, released: [] as string[] };
  let release: (() => void) | undefined;
  const plugin = definePlugin({
    id: "demo",
    version: "1.0.0",
    dispose: () => {
      state.disposed += 1;
    },
    tools: [
      { factory: echoTool("Echoes its text and reports its length in details", { nested: { ok: true } }) },
      {
        factory: {
          name: "flood",
          label: "Flood",
          description: "Returns more text than a client should take",
          parameters: Type.Object({ chars: Type.Number() }),
          execute: async (_id, p) => ({
            content: [{ type: "text", text: "x".repeat((p as { chars: number }).chars) }],
            details: undefined,
          }),
        },
      },
      {
        factory: {
          name: "slow",
          label: "Slow",
          description: "Answers when released",
          parameters: Type.Object({}),
          execute: (_id, _p, signal) =>
            new Promise((resolve, reject) => {
              release = () => resolve({ content: [{ type: "text", text: "released" }], details: {} });
              signal?.addEventListener("abort", () => reject(signal.reason));
            }),
        },
      },
      {
        factory: {
          name: "fail",
          label: "Fail",
          description: "Throws",
          parameters: Type.Object({}),
          execute: async () => {
            throw new Error("it broke");
          },
        },
      },
    ],
  });
  const toolset = createToolset({ plugins: [plugin] });
  return { toolset, state, release: () => release?.() };
}

function pipes() {
  const serverIn = new PassThrough();
  const serverOut = new PassThrough();
  return { serverIn, serverOut };
}

async function connectClient(serverIn: PassThrough, serverOut: PassThrough) {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new LineTransport(serverOut, serverIn));
  return client;
}

describe("serveStdio", () => {
  const { toolset, state, release } = demo();
  const { serverIn, serverOut } = pipes();
  let serving: McpServing;
  let client: Client;

  beforeAll(async () => {
    serving = await serveStdio(toolset, {
      input: serverIn,
      output: serverOut,
      maxMessageBytes: 1024 * 1024,
      signals: false,
    });
    client = await connectClient(serverIn, serverOut);
  });

  afterAll(async () => {
    await serving.stop();
  });

  it("reports this package's version and lists the tools", async () => {
    expect(client.getServerVersion()).toEqual({ name: "clawtools", version: MCP_PACKAGE_VERSION });
    expect(MCP_PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "flood", "slow", "fail"]);
  });

  it("answers a message over the limit with an error naming it, and keeps serving", async () => {
    const big = "y".repeat(2 * 1024 * 1024);
    const error = await client.callTool({ name: "echo", arguments: { text: big } }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { code?: number }).code).toBe(-32600);
    const size = Buffer.byteLength(
      JSON.stringify({
        method: "tools/call",
        params: { name: "echo", arguments: { text: big } },
        jsonrpc: "2.0",
        id: 2,
      }),
    );
    expect((error as Error).message).toBe(`MCP error -32600: ${messageTooLargeMessage(size, 1024 * 1024)}`);
    expect(messageTooLargeMessage(12_582_912, 10 * 1024 * 1024)).toBe(
      "Message too large: 12,582,912 bytes is over this server's limit of 10,485,760 bytes (10 MiB, clawtools serve --max-message-mb). The request was not read; send less in one call (split a large file across several writes or edits).",
    );
    expect(text(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );
  });

  it("skips an oversized notification without answering it", async () => {
    const lines: string[] = [];
    const onData = (d: Buffer) => lines.push(...String(d).split("\n").filter(Boolean));
    serverOut.on("data", onData);
    serverIn.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { data: "n".repeat(2 * 1024 * 1024) } })}\n`,
    );
    expect(text(await client.callTool({ name: "echo", arguments: { text: "after" } }))).toBe("after");
    serverOut.off("data", onData);
    expect(lines.map((l) => JSON.parse(l).error).filter(Boolean)).toEqual([]);
  });

  it("sends an object's details as structuredContent; a tool's failure stays an isError result", async () => {
    const r = await client.callTool({ name: "echo", arguments: { text: "abc" } });
    expect(r.structuredContent).toEqual({ length: 3, nested: { ok: true } });
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.parse(text(failed))).toEqual({ status: "error", tool: "fail", error: "it broke" });
  });

  it("refuses an unknown tool with JSON-RPC -32602", async () => {
    const error = await client.callTool({ name: "nope", arguments: {} }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: -32602, message: "MCP error -32602: Unknown tool: nope" });
  });

  it("caps a result's text and says how to get the rest", async () => {
    const r = await client.callTool({ name: "flood", arguments: { chars: 250_000 } });
    const blocks = r.content as Array<{ type: string; text: string }>;
    expect(blocks[0]!.text).toHaveLength(200_000);
    expect(blocks.at(-1)!.text).toBe(truncatedResultNotice(200_000, 250_000, 200_000));
    expect(blocks.at(-1)!.text).toBe(
      "[Result truncated by the MCP server: showing the first 200,000 of 250,000 characters (limit 200,000 per result). To get the rest, ask for less at a time: read with offset/limit, a narrower grep pattern or path, or process log with offset/limit.]",
    );
  });

  it("answers a line that is not JSON with a parse error", async () => {
    const lines: string[] = [];
    const onData = (d: Buffer) => lines.push(...String(d).split("\n").filter(Boolean));
    serverOut.on("data", onData);
    serverIn.write("{not json\n");
    await expect.poll(() => lines.length, { timeout: 10_000 }).toBeGreaterThan(0);
    serverOut.off("data", onData);
    expect(JSON.parse(lines[0]!)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(state.disposed).toBe(0);
    release();
  });
});

describe("serveStdio lifecycle", () => {
  it("refuses requests before initialize", async () => {
    const { toolset } = demo();
    const { serverIn, serverOut } = pipes();
    const serving = await serveStdio(toolset, { input: serverIn, output: serverOut, signals: false });
    const lines: string[] = [];
    serverOut.on("data", (d) => lines.push(...String(d).split("\n").filter(Boolean)));
    serverIn.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}\n`);
    serverIn.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } })}\n`,
    );
    await expect.poll(() => lines.length, { timeout: 10_000 }).toBe(2);
    for (const [i, line] of lines.entries())
      expect(JSON.parse(line)).toEqual({
        jsonrpc: "2.0",
        id: i + 1,
        error: { code: -32600, message: NOT_INITIALIZED_MESSAGE },
      });
    expect(NOT_INITIALIZED_MESSAGE).toBe(
      "Server not initialized: send an initialize request first (MCP lifecycle)",
    );
    await serving.stop();
  });

  it("at end of input answers the calls still running, then disposes the toolset", async () => {
    const { toolset, state, release } = demo();
    const { serverIn, serverOut } = pipes();
    const serving = await serveStdio(toolset, { input: serverIn, output: serverOut, signals: false });
    const client = await connectClient(serverIn, serverOut);
    const pending = client.callTool({ name: "slow", arguments: {} });
    await new Promise((r) => setTimeout(r, 50));
    serverIn.end();
    await new Promise((r) => setTimeout(r, 50));
    expect(state.disposed).toBe(0);
    release();
    expect(text(await pending)).toBe("released");
    expect(await serving.done).toBe("end of input");
    expect(state.disposed).toBe(1);
  });

  it("SIGTERM, SIGINT and SIGHUP stop it like end of input, disposing the toolset and onStop", async () => {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      const { toolset, state } = demo();
      const { serverIn, serverOut } = pipes();
      let stopped = 0;
      const before = process.listenerCount(signal);
      const serving = await serveStdio(toolset, {
        input: serverIn,
        output: serverOut,
        onStop: () => {
          stopped += 1;
        },
      });
      const client = await connectClient(serverIn, serverOut);
      const pending = client.callTool({ name: "slow", arguments: {} }).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 20));
      process.emit(signal, signal);
      expect(await serving.done).toBe(signal);
      expect({ disposed: state.disposed, stopped }).toEqual({ disposed: 1, stopped: 1 });
      // the handlers are gone again
      expect(process.listenerCount(signal)).toBe(before);
      await client.close();
      await pending;
    }
  });

  it("accepts a message larger than the SDK's 10 MiB by default", async () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(64 * 1024 * 1024);
    const { toolset } = demo();
    const { serverIn, serverOut } = pipes();
    const serving = await serveStdio(toolset, { input: serverIn, output: serverOut, signals: false });
    const client = await connectClient(serverIn, serverOut);
    const big = "z".repeat(12 * 1024 * 1024);
    const r = await client.callTool({ name: "echo", arguments: { text: big } });
    expect(r.structuredContent).toMatchObject({ length: big.length });
    await serving.stop();
  });
});
