import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../src/index.js";
import { changingToolset, namedTool } from "./support/changing-toolset.js";

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
    const toolset = changingToolset("grows");
    const { client } = await connected(toolset);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    toolset.addTool("second");
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["grows-first", "second"]);
    await client.close();
    // the server stops listening once its connection is gone
    await expect.poll(() => toolset.listeners()).toBe(0);
  });

  it("does not declare listChanged for a toolset that cannot change", async () => {
    const { client } = await connected({ tools: [namedTool("only")] });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBeUndefined();
    await client.close();
  });
});
