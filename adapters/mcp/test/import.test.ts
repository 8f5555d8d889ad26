import { createToolset, definePlugin } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, importMcpTools, type McpClientLike } from "../src/index.js";

async function remoteServer() {
  const server = new Server({ name: "remote", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "add",
        description: "Add two numbers",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
      { name: "fail", description: "Always fails", inputSchema: { type: "object" } },
      { name: "secret-dump", description: "Dangerous", inputSchema: { type: "object", properties: {} } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const args = req.params.arguments as { a: number; b: number };
    if (req.params.name === "add") return { content: [{ type: "text", text: String(args.a + args.b) }] };
    return { content: [{ type: "text", text: "remote failure" }], isError: true };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(b);
  return client;
}

describe("importMcpTools", () => {
  it("imports remote tools under a prefix, filtered by policy, called through the pipeline", async () => {
    const client = await remoteServer();
    const imported = await importMcpTools(client, { prefix: "calc_" });
    expect(imported.map((t) => t.name)).toEqual(["calc_add", "calc_fail", "calc_secret_dump"]);
    const plugin = definePlugin({
      id: "remote-calc",
      version: "1.0.0",
      tools: imported.map((tool) => ({ factory: tool })),
    });
    const set = createToolset({ plugins: [plugin], policy: { global: { deny: ["calc_secret_*"] } } });
    expect(set.tools.map((t) => t.name)).toEqual(["calc_add", "calc_fail"]);
    const add = set.tools[0]!;
    // the pipeline validates and coerces before the remote call
    expect((await add.execute("1", { a: "2", b: 3 })).content).toEqual([{ type: "text", text: "5" }]);
    const invalid = await add.execute("2", { a: 1 });
    expect(invalid.isError).toBe(true);
    expect((invalid.details as { error: string }).error).toContain("  - b: is required");
    const failed = await set.tools[1]!.execute("3", {});
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "remote failure" }] });
  });
});

describe("importMcpTools with any client of the SDK's shape", () => {
  it("takes a client that is not this package's SDK copy (structural type)", async () => {
    const calls: unknown[] = [];
    // another SDK version, or a hand-written client: only the shape matters
    const client: McpClientLike = {
      async listTools(params) {
        return params?.cursor
          ? { tools: [{ name: "second", inputSchema: { type: "object", properties: {} } }] }
          : {
              tools: [{ name: "First-Tool", inputSchema: { type: "object", properties: {} } }],
              nextCursor: "p2",
            };
      },
      async callTool(params, _schema, options) {
        calls.push(params);
        options?.onprogress?.({ progress: 1, message: "half" });
        return { content: [{ type: "text", text: `ran ${params.name}` }], structuredContent: { n: 1 } };
      },
    };
    const tools = await importMcpTools(client);
    expect(tools.map((t) => t.name)).toEqual(["first_tool", "second"]);
    const updates: string[] = [];
    const r = await tools[0]!.execute("1", { a: 1 }, undefined, (u) =>
      updates.push((u.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("")),
    );
    expect(r).toEqual({ content: [{ type: "text", text: "ran First-Tool" }], details: { n: 1 } });
    expect(calls).toEqual([{ name: "First-Tool", arguments: { a: 1 } }]);
    expect(updates).toEqual(["half"]);
  });
});

describe("createMcpServer", () => {
  it("serves a toolset: list with hints, call with images, isError and progress", async () => {
    const plugin = definePlugin({
      id: "demo",
      version: "1.0.0",
      tools: [
        {
          meta: { readOnly: true },
          factory: {
            name: "pixel",
            label: "Pixel",
            description: "Returns an image",
            parameters: { type: "object", properties: {} },
            execute: async (_id, _p, _s, onUpdate) => {
              onUpdate?.({ content: [{ type: "text", text: "drawing" }] });
              return {
                content: [
                  { type: "text", text: "a pixel" },
                  { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
                ],
                details: {},
              };
            },
          },
        },
        {
          factory: {
            name: "boom",
            label: "Boom",
            description: "Throws",
            parameters: { type: "object", properties: {} },
            execute: async () => {
              throw new Error("kaboom");
            },
          },
        },
      ],
    });
    const set = createToolset({ plugins: [plugin] });
    const server = createMcpServer(set);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(b);
    const { tools } = await client.listTools();
    expect(tools[0]).toMatchObject({
      name: "pixel",
      annotations: { readOnlyHint: true },
      inputSchema: { type: "object", properties: {} },
    });
    const progress: string[] = [];
    const r = await client.callTool({ name: "pixel", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    expect(r.content).toEqual([
      { type: "text", text: "a pixel" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ]);
    expect(progress).toEqual(["drawing"]);
    const boom = await client.callTool({ name: "boom", arguments: {} });
    expect(boom.isError).toBe(true);
    expect(JSON.parse((boom.content as Array<{ text: string }>)[0]!.text)).toEqual({
      status: "error",
      tool: "boom",
      error: "kaboom",
    });
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});
