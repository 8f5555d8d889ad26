import { PassThrough } from "node:stream";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { type McpServing, serveStdio } from "../src/index.js";
import { changingToolset } from "./support/changing-toolset.js";
import { modernStreamClientTransport } from "./support/stream-client.js";

// A 2026-07-28 client on stdio hears of changes as one on Streamable HTTP does: on its
// subscriptions/listen streams, each filtered as it asked. Driven with the MCP SDK's own v2 client.

let serving: McpServing | undefined;
let serverIn: PassThrough;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
});

async function listening(toolset: ReturnType<typeof changingToolset>) {
  serverIn = new PassThrough();
  const serverOut = new PassThrough();
  serving = await serveStdio(toolset, { input: serverIn, output: serverOut, signals: false });
  const client = new ClientV2({ name: "stdio-host", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(modernStreamClientTransport(serverIn, serverOut));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const heard: string[] = [];
  client.setNotificationHandler("notifications/tools/list_changed", () => void heard.push("tools"));
  client.setNotificationHandler("notifications/resources/list_changed", () => void heard.push("resources"));
  client.setNotificationHandler(
    "notifications/resources/updated",
    (n) => void heard.push(`updated ${n.params.uri}`),
  );
  return { client, heard };
}

describe("subscriptions/listen over stdio (2026-07-28)", () => {
  it("a listening client hears tools and resources list_changed, and lists the new tool", async () => {
    const toolset = changingToolset("stdio");
    const { client, heard } = await listening(toolset);
    const subscription = await client.listen({ toolsListChanged: true, resourcesListChanged: true });
    toolset.addTool("second");
    await expect.poll(() => heard).toEqual(["tools"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["stdio-first", "second"]);
    toolset.touch();
    await expect.poll(() => heard).toEqual(["tools", "resources"]);
    await subscription.close();
    await client.close();
  });

  it("each stream hears only what its filter asks for: resources/updated for its URIs alone", async () => {
    const toolset = changingToolset("stdio");
    const { client, heard } = await listening(toolset);
    const subscription = await client.listen({ resourceSubscriptions: ["memo://stdio/notes"] });
    toolset.addTool("second");
    toolset.touch("memo://stdio/other");
    toolset.touch("memo://stdio/notes");
    // the asked-for change came last on the same stream: had the others been sent, they came first
    await expect.poll(() => heard).toEqual(["updated memo://stdio/notes"]);
    await subscription.close();
    // a closed stream hears nothing more
    toolset.addTool("third");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("third");
    expect(heard).toEqual(["updated memo://stdio/notes"]);
    await client.close();
  });

  it("stops at end of input though a listen stream is still open (the client is gone)", async () => {
    const toolset = changingToolset("stdio");
    const { client } = await listening(toolset);
    await client.listen({ toolsListChanged: true });
    serverIn.end();
    expect(await serving!.done).toBe("end of input");
    serving = undefined;
    expect(toolset.listeners()).toBe(0);
    await client.close();
  });

  it("stops following the toolset once the server stops", async () => {
    const toolset = changingToolset("stdio");
    const { client } = await listening(toolset);
    await (await client.listen({ toolsListChanged: true })).close();
    expect(toolset.listeners()).toBeGreaterThan(0);
    await serving!.stop();
    serving = undefined;
    expect(toolset.listeners()).toBe(0);
    await client.close();
  });
});
