// MCP resources through the built CLI, as a host meets them: an exec whose output passes the
// result's limit links its whole output as a resource; the host lists it, reads it, subscribes
// to a running command's output and hears when it changes; another client cannot read it.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, text } from "./support/cli.js";
import { serveHttp as start } from "./support/serve.js";

async function connect(url: string) {
  const client = new Client({ name: "e2e-resources", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

type Link = { type: "resource_link"; uri: string; name: string; mimeType?: string };
const linkOf = (result: unknown) =>
  (result as { content: Array<{ type: string }> }).content.find((c) => c.type === "resource_link") as
    | Link
    | undefined;
const readText = async (client: Client, uri: string) => {
  const { contents } = await client.readResource({ uri });
  return (contents[0] as { text: string }).text;
};
const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join("\n");

describe("clawtools serve --http: resources", () => {
  const workspace = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-resources-"));
  let server: { child: ChildProcess; url: string; err: () => string };

  beforeAll(async () => {
    ensureBuilt();
    // a small result limit, so a few thousand lines spill to the state dir
    server = await start(["--workspace", workspace], {
      env: { ...process.env, OPENCLAW_BASH_MAX_OUTPUT_CHARS: "2000" },
    });
  }, 400_000);
  afterAll(() => {
    server?.child.kill("SIGTERM");
  });

  it("an exec result links its spilled output; the host lists and reads it, and hears a running command's output change", async () => {
    const a = await connect(server.url);
    const listChanged: unknown[] = [];
    a.client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => {
      listChanged.push(n);
    });
    expect(a.client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });

    const result = await a.client.callTool({
      name: "exec",
      arguments: { command: 'for i in $(seq 1 3000); do echo "line $i"; done' },
    });
    const link = linkOf(result)!;
    expect(link).toMatchObject({ type: "resource_link", mimeType: "text/plain" });
    expect(link.uri).toMatch(/^clawtools:\/\/runtime\/exec-output\/.+/);
    expect(text(result)).toContain("characters (");
    // the whole output, every line the result left out
    expect(await readText(a.client, link.uri)).toBe(`${lines(1, 3000)}\n`);
    const { resources } = await a.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(link.uri);
    const { resourceTemplates } = await a.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(
      "clawtools://runtime/exec-output/{sessionId}",
    );
    expect(listChanged.length).toBeGreaterThanOrEqual(1);

    // a command in the background: subscribe to its output and read it when told it changed
    const started = await a.client.callTool({
      name: "exec",
      arguments: {
        command: 'for i in $(seq 1 3000); do echo "line $i"; done; sleep 1; echo finished-marker',
        background: true,
      },
    });
    const sessionId = (started.structuredContent as { sessionId: string }).sessionId;
    const uri = `clawtools://runtime/exec-output/${sessionId}`;
    const updates: string[] = [];
    a.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await a.client.subscribeResource({ uri });
    await expect
      .poll(
        async () => updates.includes(uri) && (await readText(a.client, uri)).endsWith("finished-marker\n"),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
    expect(updates.every((u) => u === uri)).toBe(true);
    await a.client.unsubscribeResource({ uri });

    // another client: not listed, and a read is refused as for a URI nobody serves
    const b = await connect(server.url);
    expect((await b.client.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
    await expect(b.client.readResource({ uri: link.uri })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`Resource not found: ${link.uri}`),
    });
    await a.transport.terminateSession();
    await b.transport.terminateSession();
  }, 60_000);
});
