import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type AnyAgentTool, Type } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, type McpRoot } from "../src/index.js";

const dir = (name: string) => mkdtempSync(path.join(tmpdir(), `clawtools-roots-${name}-`));
const text = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");

/** A tool bound to one directory, as a section's factory binds its tools to the workspace. */
const whereTool = (workspace: string): AnyAgentTool => ({
  name: "where",
  label: "Where",
  description: "Says which directory it works in",
  parameters: Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: workspace }], details: undefined }),
});

/** A toolset whose tools are rebuilt for the first root, as serve does without --workspace. */
function rootedToolset(start: string) {
  const seen: McpRoot[][] = [];
  const toolset = { tools: [whereTool(start)] };
  const onRoots = (roots: McpRoot[]) => {
    seen.push(roots);
    if (roots[0]) toolset.tools = [whereTool(roots[0].path)];
  };
  return { toolset, onRoots, seen };
}

async function connect(server: ReturnType<typeof createMcpServer>, client: Client) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
}

describe("roots", () => {
  it("follows the client's first root, and its change announced by list_changed", async () => {
    const [start, first, second] = [dir("start"), dir("first"), dir("second")];
    const { toolset, onRoots, seen } = rootedToolset(start);
    const server = createMcpServer(toolset, { onRoots });
    let roots = [{ uri: pathToFileURL(first).href, name: "first" }];
    const client = new Client(
      { name: "rooted", version: "1" },
      { capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    await connect(server, client);
    expect(text(await client.callTool({ name: "where", arguments: {} }))).toBe(first);

    roots = [
      { uri: pathToFileURL(second).href, name: "second" },
      { uri: pathToFileURL(first).href, name: "first" },
    ];
    await client.sendRootsListChanged();
    // the call after the notification runs in the new root, without waiting on anything else
    expect(text(await client.callTool({ name: "where", arguments: {} }))).toBe(second);
    expect(seen.map((r) => r.map((x) => x.path))).toEqual([[first], [second, first]]);
    await client.close();
  });

  it("a client without roots keeps the toolset it started with, and is never asked", async () => {
    const start = dir("plain");
    const { toolset, onRoots, seen } = rootedToolset(start);
    const server = createMcpServer(toolset, { onRoots });
    const client = new Client({ name: "plain", version: "1" });
    await connect(server, client);
    expect(text(await client.callTool({ name: "where", arguments: {} }))).toBe(start);
    expect(seen).toEqual([]);
    await client.close();
  });
});
