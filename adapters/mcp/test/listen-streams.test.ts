import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpServing, serveHttp } from "../src/index.js";
import { changingToolset } from "./support/changing-toolset.js";

// On 2026-07-28 a client hears of changes on its subscriptions/listen stream (there is no
// session to push on): tools/list_changed when a mounted server comes back or a plugin is added,
// resources/list_changed and resources/updated. Driven with the MCP SDK's own client.

let serving: McpHttpServing | undefined;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
});

async function modernClient(url: string, name: string) {
  const client = new ClientV2({ name, version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new HttpV2(new URL(url)));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const heard: string[] = [];
  const record = (method: string) => () => void heard.push(method);
  client.setNotificationHandler("notifications/tools/list_changed", record("tools"));
  client.setNotificationHandler("notifications/resources/list_changed", record("resources"));
  client.setNotificationHandler(
    "notifications/resources/updated",
    (n) => void heard.push(`updated ${n.params.uri}`),
  );
  return { client, heard };
}

describe("subscriptions/listen streams (2026-07-28)", () => {
  it("a listening client hears tools/list_changed when the tools change, and lists the new tool", async () => {
    const toolset = changingToolset("shared");
    serving = await serveHttp(toolset, { port: 0, signals: false });
    const { client, heard } = await modernClient(serving.url, "host");
    const subscription = await client.listen({ toolsListChanged: true, resourcesListChanged: true });
    toolset.addTool("second");
    await expect.poll(() => heard).toEqual(["tools"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["shared-first", "second"]);
    toolset.touch();
    await expect.poll(() => heard).toEqual(["tools", "resources"]);
    await subscription.close();
    await client.close();
  });

  it("a stream hears only what its filter asks for", async () => {
    const toolset = changingToolset("shared");
    serving = await serveHttp(toolset, { port: 0, signals: false });
    const { client, heard } = await modernClient(serving.url, "host");
    const subscription = await client.listen({ resourcesListChanged: true });
    toolset.addTool("second");
    toolset.touch();
    // the resources change came after the tools change on the same stream: had the tools one been sent, it came first
    await expect.poll(() => heard).toEqual(["resources"]);
    await subscription.close();
    await client.close();
  });

  it("each stateless client hears its own toolset's changes, never another client's", async () => {
    const made = new Map<string, ReturnType<typeof changingToolset>>();
    serving = await serveHttp(changingToolset("shared"), {
      port: 0,
      signals: false,
      sessionToolset: ({ sessionId }) => {
        const own = changingToolset(`client-${made.size + 1}`);
        made.set(sessionId, own);
        return own;
      },
    });
    const a = await modernClient(serving.url, "host-a");
    const b = await modernClient(serving.url, "host-b");
    const filter = {
      toolsListChanged: true,
      resourceSubscriptions: ["memo://client-1/notes", "memo://client-2/notes"],
    };
    const subA = await a.client.listen(filter);
    const subB = await b.client.listen(filter);
    const [ownA, ownB] = [...made.values()];
    const nameOf = async (c: ClientV2) => (await c.listTools()).tools[0]!.name;
    // which toolset is whose: each client lists its own
    const [first, second] = (await nameOf(a.client)) === "client-1-first" ? [ownA!, ownB!] : [ownB!, ownA!];
    first.addTool("only-a");
    first.touch("memo://client-1/notes");
    second.touch("memo://client-2/notes");
    await expect.poll(() => b.heard).toEqual(["updated memo://client-2/notes"]);
    await expect.poll(() => a.heard).toEqual(["tools", "updated memo://client-1/notes"]);
    expect(b.heard).toEqual(["updated memo://client-2/notes"]);
    await Promise.all([subA.close(), subB.close()]);
    // streams opened and closed leave nothing listening: the server follows each toolset once
    for (let i = 0; i < 5; i++) await (await a.client.listen({ toolsListChanged: true })).close();
    await a.client.listTools();
    expect([first.listeners(), second.listeners()]).toEqual([2, 2]);
    await Promise.all([a.client.close(), b.client.close()]);
    // and stops following a client's toolset once the server stops
    await serving.stop();
    serving = undefined;
    expect(first.listeners() + second.listeners()).toBe(0);
  });
});
