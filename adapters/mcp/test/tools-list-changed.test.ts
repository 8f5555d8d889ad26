import { type AnyAgentTool, Type } from "@clawtools/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../src/index.js";

const tool = (name: string): AnyAgentTool => ({
  name,
  label: name,
  description: `The ${name} tool`,
  parameters: Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: name }], details: undefined }),
});

/** A toolset whose tools grow, telling its listeners as serve's does when an MCP server comes back. */
function growingToolset() {
  let tools = [tool("first")];
  const listeners = new Set<() => void>();
  return {
    get tools() {
      return tools;
    },
    onToolsChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add(name: string) {
      tools = [...tools, tool(name)];
      for (const l of listeners) l();
    },
    listeners,
  };
}

async function connected(toolset: Parameters<typeof createMcpServer>[0]) {
  const server = createMcpServer(toolset);
  const client = new Client({ name: "changes", version: "1" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { server, client };
}

describe("tools/list_changed", () => {
  it("declares listChanged and notifies the client when the toolset's tools change", async () => {
    const toolset = growingToolset();
    const { client } = await connected(toolset);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    toolset.add("second");
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["first", "second"]);
    await client.close();
    // the server stops listening once its connection is gone
    await expect.poll(() => toolset.listeners.size).toBe(0);
  });

  it("does not declare listChanged for a toolset that cannot change", async () => {
    const { client } = await connected({ tools: [tool("only")] });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    await client.close();
  });
});
