import { createToolset, definePlugin, Type } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, type McpToolsetLike, toMcpTool } from "../src/index.js";

const shapeSchema = {
  type: "object",
  properties: { count: { type: "integer" } },
  required: ["count"],
};

/** Two tools declaring the same outputSchema: one keeps its promise, one breaks it. */
function toolset(): McpToolsetLike {
  const tool = (name: string, details: unknown) => ({
    factory: {
      name,
      label: name,
      description: `returns ${JSON.stringify(details)}`,
      parameters: Type.Object({}),
      outputSchema: shapeSchema,
      execute: async () => ({ content: [{ type: "text" as const, text: `${name} answer` }], details }),
    },
  });
  const plugin = definePlugin({
    id: "shapes",
    version: "1.0.0",
    tools: [
      tool("good_shape", { count: 3 }),
      tool("bad_shape", { count: "three" }),
      tool("no_shape", undefined),
      {
        factory: {
          ...tool("throws", {}).factory,
          execute: async () => {
            throw new Error("disk on fire");
          },
        },
      },
    ],
  });
  return createToolset({ plugins: [plugin] });
}

async function connected(set: McpToolsetLike, log: (line: string) => void) {
  const server = createMcpServer(set, { log });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "listing", version: "1" });
  await client.connect(b);
  return client;
}

describe("tool listing", () => {
  it("titles a tool by its label, else a readable name; a plugin's tool never gets core's schema", () => {
    const base = { description: "d", parameters: {}, execute: async () => ({ content: [], details: {} }) };
    expect(toMcpTool({ ...base, name: "exec", label: "exec" }).title).toBe("Exec");
    expect(toMcpTool({ ...base, name: "my_tool", label: "My fine tool" }).title).toBe("My fine tool");
    const pluginMeta = {
      id: "exec",
      label: "exec",
      description: "someone else's exec",
      sectionId: "",
      profiles: [],
      source: "plugin" as const,
      pluginId: "third-party",
    };
    expect(toMcpTool({ ...base, name: "exec", label: "exec" }, pluginMeta).outputSchema).toBeUndefined();
    const coreMeta = {
      ...pluginMeta,
      source: "core" as const,
      sectionId: "runtime",
      pluginId: "@clawtools/runtime",
      description: "Run shell commands",
    };
    // a third-party plugin that took a core name (a section it replaces) gets no core schema either
    expect(
      toMcpTool({ ...base, name: "exec", label: "exec" }, { ...coreMeta, pluginId: "openclaw:acme" })
        .outputSchema,
    ).toBeUndefined();
    const listed = toMcpTool({ ...base, name: "exec", label: "exec" }, { ...coreMeta, destructive: true });
    expect(listed.title).toBe("Run shell commands");
    expect(listed.outputSchema).toMatchObject({ type: "object", required: ["status"] });
    expect(listed.annotations).toEqual({ title: "Run shell commands", destructiveHint: true });
  });

  it("a tool's own outputSchema is declared; a result breaking it is sent as an error with its text", async () => {
    const logs: string[] = [];
    const client = await connected(toolset(), (l) => logs.push(l));
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "good_shape")!.outputSchema).toEqual(shapeSchema);
    // the SDK client validates structuredContent against the listed schema
    expect(await client.callTool({ name: "good_shape", arguments: {} })).toMatchObject({
      structuredContent: { count: 3 },
    });
    const bad = await client.callTool({ name: "bad_shape", arguments: {} });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(bad.content).toEqual([
      { type: "text", text: "bad_shape answer" },
      {
        type: "text",
        text: expect.stringMatching(
          /^\[clawtools MCP server: bad_shape: structured result does not match its outputSchema:\n {2}- count: /,
        ),
      },
    ]);
    // an error result (wrap's {status, tool, error}) reaches the SDK client without failing its check
    const failed = await client.callTool({ name: "throws", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toBeUndefined();
    expect(JSON.stringify(failed.content)).toContain("disk on fire");
    const none = await client.callTool({ name: "no_shape", arguments: {} });
    expect(none.isError).toBe(true);
    expect(JSON.stringify(none.content)).toContain("no structured content");
    expect(logs).toHaveLength(2);
    await client.close();
  });
});
