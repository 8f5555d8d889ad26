// A mounted MCP server's resources through the built CLI, as a host meets them over stdio: serve
// mounts a real second MCP server process (the SDK's server over stdio, docs-mcp-server.mjs);
// its resources and templates are listed under clawtools://mcp/docs/…, reads go to it, its
// tools' resource links are rewritten to those URIs, and its updates and list changes reach the
// client; a serve whose policy denies the mount's tools serves none of its resources.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, fixtures } from "./support/cli.js";
import { SUBSCRIPTION_ID } from "./support/raw-stdio.js";
import { postModern } from "./support/post-modern.js";
import { connectCli, serveHttp } from "./support/serve.js";
import { collectSseMessages } from "./support/sse-messages.js";

const MOUNT = "clawtools://mcp/docs/";
type Body = { uri: string; mimeType?: string; text?: string; blob?: string };
/** The first contents of a read, text or blob. */
const first = (read: { contents: unknown[] }) => read.contents[0] as Body | undefined;
const POLL = { timeout: 20_000, interval: 100 };

describe("clawtools serve: a mounted MCP server's resources", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-mount-resources-"));
  const config = path.join(dir, "clawtools.json");
  let client: Client;
  const updates: string[] = [];
  let listChanges = 0;

  beforeAll(async () => {
    ensureBuilt();
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          docs: { command: process.execPath, args: [path.join(fixtures, "docs-mcp-server.mjs")] },
        },
      }),
    );
    ({ client } = await connectCli(["serve", "--workspace", dir, "--config", config]));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanges += 1;
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the mount's resources and templates under its namespace and reads them from it", async () => {
    const { resources } = await client.listResources();
    const mounted = resources.filter((r) => r.uri.startsWith(MOUNT));
    expect(mounted).toEqual([
      {
        uri: `${MOUNT}docs://readme`,
        name: "readme",
        mimeType: "text/markdown",
        description: "The docs' readme",
      },
      { uri: `${MOUNT}docs://logo`, name: "logo", mimeType: "image/png" },
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual({
      uriTemplate: `${MOUNT}docs://notes/{id}`,
      name: "note",
      mimeType: "text/plain",
    });
    const readme = await client.readResource({ uri: `${MOUNT}docs://readme` });
    expect(readme.contents).toEqual([
      { uri: `${MOUNT}docs://readme`, mimeType: "text/markdown", text: "# Docs\n\nThe first version.\n" },
    ]);
    const logo = await client.readResource({ uri: `${MOUNT}docs://logo` });
    expect(Buffer.from(String(first(logo)?.blob), "base64")).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 250, 251]),
    );
    // a template's instance, read through the mount
    const note = await client.readResource({ uri: `${MOUNT}docs://notes/42` });
    expect(note.contents[0]).toMatchObject({ uri: `${MOUNT}docs://notes/42`, text: "note number 42" });
    // what the mounted server does not have is not found here, named by the URI the client asked for
    await expect(client.readResource({ uri: `${MOUNT}docs://nothing` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`Resource not found: ${MOUNT}docs://nothing`),
    });
  });

  it("rewrites a mounted tool's resource link and embedded resource to URIs the client reads here", async () => {
    const result = (await client.callTool({ name: "docs__link", arguments: {} })) as {
      content: Array<Record<string, unknown>>;
    };
    expect(result.content).toContainEqual({
      type: "resource_link",
      uri: `${MOUNT}docs://readme`,
      name: "readme",
      mimeType: "text/markdown",
    });
    expect(result.content).toContainEqual({
      type: "resource",
      resource: { uri: `${MOUNT}docs://notes/7`, mimeType: "text/plain", text: "note number 7" },
    });
    // doing exactly what the result says: read the linked URI
    const link = result.content.find((c) => c.type === "resource_link") as { uri: string };
    const read = await client.readResource({ uri: link.uri });
    expect(first(read)?.text).toBe("# Docs\n\nThe first version.\n");
  });

  it("forwards the mounted server's updates to a subscriber and its list changes", async () => {
    const uri = `${MOUNT}docs://readme`;
    await client.subscribeResource({ uri });
    // the mount subscribes at the server once the client is connected: edit until it is heard
    let version = 0;
    await expect
      .poll(async () => {
        version += 1;
        await client.callTool({ name: "docs__edit_readme", arguments: { text: `version ${version}` } });
        return updates;
      }, POLL)
      .toContain(uri);
    expect(first(await client.readResource({ uri }))?.text).toBe(`version ${version}`);

    const before = listChanges;
    await client.callTool({ name: "docs__add_doc", arguments: { name: "faq" } });
    await expect.poll(() => listChanges, POLL).toBeGreaterThan(before);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`${MOUNT}docs://extra/faq`);
    expect(first(await client.readResource({ uri: `${MOUNT}docs://extra/faq` }))?.text).toBe("the doc faq");
  }, 60_000);

  it("serves none of the mount's resources when the policy denies its tools", async () => {
    const denied = await connectCli(["serve", "--workspace", dir, "--config", config, "--deny", "docs__*"]);
    try {
      const { resources } = await denied.client.listResources();
      expect(resources.filter((r) => r.uri.startsWith(MOUNT))).toEqual([]);
      const { resourceTemplates } = await denied.client.listResourceTemplates();
      expect(resourceTemplates.filter((t) => t.uriTemplate.startsWith(MOUNT))).toEqual([]);
      await expect(denied.client.readResource({ uri: `${MOUNT}docs://readme` })).rejects.toMatchObject({
        code: -32602,
      });
    } finally {
      await denied.client.close();
    }
  }, 60_000);

  it("2026-07-28 over --http: a listen stream hears the mounted server's update of a resource it asked for", async () => {
    const served = await serveHttp(["--workspace", dir, "--config", config], { cwd: dir });
    const stop = new AbortController();
    const post = (id: number, method: string, params: object, signal?: AbortSignal) =>
      postModern(served.url, id, method, params, { signal });
    try {
      const uri = `${MOUNT}docs://readme`;
      const stream = await post(
        1,
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: [uri] } },
        stop.signal,
      );
      const got = collectSseMessages(stream.body!);
      await expect
        .poll(() => got.map((n) => n.method), POLL)
        .toContain("notifications/subscriptions/acknowledged");
      const id = got[0]?.params?._meta?.[SUBSCRIPTION_ID];
      // the mount subscribes at its server once a client watches: edit until the update is heard
      let version = 0;
      await expect
        .poll(async () => {
          version += 1;
          await (
            await post(2, "tools/call", { name: "docs__edit_readme", arguments: { text: `http ${version}` } })
          ).text();
          return got.some(
            (n) =>
              n.method === "notifications/resources/updated" &&
              n.params?.uri === uri &&
              n.params?._meta?.[SUBSCRIPTION_ID] === id,
          );
        }, POLL)
        .toBe(true);
      const read = await (await post(3, "resources/read", { uri })).text();
      expect(read).toContain(`http ${version}`);
    } finally {
      stop.abort();
      const closed = new Promise((resolve) => served.child.once("close", resolve));
      served.child.kill("SIGTERM");
      await closed;
    }
  }, 90_000);
});
