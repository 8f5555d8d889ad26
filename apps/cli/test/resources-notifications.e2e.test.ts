// The sections' resource change notifications through the built CLI, as hosts meet them: a memory
// file written (by anything: the file on disk changes) or added, and an exec whose output spills,
// are told as notifications/resources/updated (to a 2025 subscriber) and list_changed, and on a
// 2026-07-28 subscriptions/listen stream, over stdio and --http; a client that cannot see those
// resources (another workspace, another agent session) hears nothing of them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ListRootsRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt } from "./support/cli.js";
import { type RawStdio, rawStdio, SUBSCRIPTION_ID } from "./support/raw-stdio.js";
import { postModern } from "./support/post-modern.js";
import { connectCli, type HttpServe, serveHttp } from "./support/serve.js";
import { collectSseMessages } from "./support/sse-messages.js";

const MEMORY = "clawtools://memory/file/MEMORY.md";
const ADDED = "clawtools://memory/file/memory%2Fadded.md";
const POLL = { timeout: 20_000, interval: 100 };
// a small result limit: a few thousand lines spill to the state dir as an exec-output resource
const ENV = { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "2000" };
const SPILL = 'for i in $(seq 1 3000); do echo "line $i"; done';
/** Long enough for a change a client should not hear to have reached it (memory settles in 100 ms). */
const QUIET_MS = 1500;
const quiet = () => new Promise((r) => setTimeout(r, QUIET_MS));

function workspace(name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `clawtools-e2e-notify-${name}-`));
  mkdirSync(path.join(dir, "memory"));
  writeFileSync(path.join(dir, "MEMORY.md"), "# Memory\n\nfirst\n");
  return dir;
}

/** What a 2025-era client heard: updated URIs and list changes. */
function hear(client: Client) {
  const heard = { updated: [] as string[], lists: 0 };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    heard.updated.push(n.params.uri);
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    heard.lists += 1;
  });
  return heard;
}

describe("resource notifications over stdio", () => {
  const dir = workspace("stdio");
  let client: Client;
  let heard: ReturnType<typeof hear>;
  let modern: RawStdio;

  beforeAll(async () => {
    ensureBuilt();
    const args = ["serve", "--workspace", dir, "--state-dir", path.join(dir, ".state")];
    modern = rawStdio(args, { cwd: dir, env: { ...process.env, ...ENV } });
    ({ client } = await connectCli(args, { cwd: dir, env: ENV }));
    heard = hear(client);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await client?.close();
    await modern?.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it("2025: a subscriber hears its memory file written; a memory file added and an exec spill change the list", async () => {
    // as a host does: list, then subscribe to what it found (a section's changes are followed
    // from its load on: the listing loads it)
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(MEMORY);
    await client.subscribeResource({ uri: MEMORY });
    writeFileSync(path.join(dir, "MEMORY.md"), "# Memory\n\nsecond\n");
    await expect.poll(() => heard.updated, POLL).toContain(MEMORY);

    const lists = heard.lists;
    writeFileSync(path.join(dir, "memory", "added.md"), "a new note\n");
    await expect.poll(() => heard.lists, POLL).toBeGreaterThan(lists);
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(ADDED);

    const before = heard.lists;
    const result = await client.callTool({ name: "exec", arguments: { command: SPILL } });
    const link = (result.content as Array<{ type: string; uri?: string }>).find(
      (c) => c.type === "resource_link",
    );
    expect(link?.uri).toMatch(/^clawtools:\/\/runtime\/exec-output\//);
    await expect.poll(() => heard.lists, POLL).toBeGreaterThan(before);
    // only the subscribed URI was told as updated
    expect(new Set(heard.updated)).toEqual(new Set([MEMORY]));
  }, 60_000);

  it("2026-07-28: a subscriptions/listen stream hears its memory file written and an exec spill", async () => {
    const listed = await modern.ask("resources/list", {});
    expect(JSON.stringify(listed.result)).toContain(MEMORY);
    const listen = modern.listen({ resourcesListChanged: true, resourceSubscriptions: [MEMORY] });
    await expect
      .poll(() => modern.notifications.map((n) => n.method), POLL)
      .toContain("notifications/subscriptions/acknowledged");
    const onStream = (method: string, uri?: string) =>
      modern.notifications.some(
        (n) =>
          n.method === method &&
          n.params?._meta?.[SUBSCRIPTION_ID] === listen &&
          (uri === undefined || n.params?.uri === uri),
      );
    writeFileSync(path.join(dir, "MEMORY.md"), "# Memory\n\nthird\n");
    await expect.poll(() => onStream("notifications/resources/updated", MEMORY), POLL).toBe(true);
    const answer = await modern.ask("tools/call", { name: "exec", arguments: { command: SPILL } });
    expect(JSON.stringify(answer.result)).toContain("clawtools://runtime/exec-output/");
    await expect.poll(() => onStream("notifications/resources/list_changed"), POLL).toBe(true);
  }, 60_000);
});

/** A 2025-era client of `url`; with `root`, one that offers it as its only root (its workspace). */
async function connect(url: string, root?: string) {
  const client = new SdkClient(
    { name: "e2e-notify", version: "1" },
    root ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (root)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(root).href }],
    }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, heard: hear(client) };
}

/** A 2026-07-28 request over HTTP, as the revision's wire is written; `id` tells stateless clients apart. */
function post(url: string, client: string, id: number, method: string, params: object, signal?: AbortSignal) {
  return postModern(url, id, method, params, { signal, headers: { "clawtools-client-id": client } });
}

/** Opens a listen stream; collects its notifications until `stop` aborts. */
async function listenOver(url: string, client: string, filter: object, stop: AbortSignal) {
  const response = await post(url, client, 1, "subscriptions/listen", { notifications: filter }, stop);
  const got = collectSseMessages(response.body!);
  await expect
    .poll(() => got.map((n) => n.method), POLL)
    .toContain("notifications/subscriptions/acknowledged");
  return got;
}

describe("resource notifications over --http", () => {
  const dir = workspace("http");
  const elsewhere = workspace("http-b");
  let server: HttpServe;

  beforeAll(async () => {
    ensureBuilt();
    server = await serveHttp(["--state-dir", path.join(dir, ".state")], {
      cwd: dir,
      env: { ...process.env, ...ENV },
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => {
    server?.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    rmSync(elsewhere, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it("2025: each client hears its own workspace's memory and its own exec spill, never the other's", async () => {
    const a = await connect(server.url);
    const b = await connect(server.url, elsewhere);
    // the same URI names each client's own MEMORY.md
    expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain(MEMORY);
    expect((await b.client.listResources()).resources.map((r) => r.uri)).toContain(MEMORY);
    await a.client.subscribeResource({ uri: MEMORY });
    await b.client.subscribeResource({ uri: MEMORY });
    // b's root moved it to its own workspace: its list changed then (told once); from here on quiet
    await quiet();
    b.heard.lists = 0;
    writeFileSync(path.join(dir, "MEMORY.md"), "# Memory\n\na's second\n");
    await expect.poll(() => a.heard.updated, POLL).toContain(MEMORY);
    const lists = a.heard.lists;
    await a.client.callTool({ name: "exec", arguments: { command: SPILL } });
    await expect.poll(() => a.heard.lists, POLL).toBeGreaterThan(lists);
    await quiet();
    expect(b.heard).toEqual({ updated: [], lists: 0 });

    const aHeard = a.heard.updated.length;
    writeFileSync(path.join(elsewhere, "MEMORY.md"), "# Memory\n\nb's second\n");
    await expect.poll(() => b.heard.updated, POLL).toEqual([MEMORY]);
    await quiet();
    expect(a.heard.updated.length).toBe(aHeard);
    await a.transport.terminateSession();
    await b.transport.terminateSession();
  }, 60_000);

  it("2026-07-28: a listen stream hears its client's memory file and exec spill; another client's stream does not hear the spill", async () => {
    const stop = new AbortController();
    try {
      const listed = await (await post(server.url, "x", 3, "resources/list", {})).text();
      expect(listed).toContain(MEMORY);
      const x = await listenOver(
        server.url,
        "x",
        { resourcesListChanged: true, resourceSubscriptions: [MEMORY] },
        stop.signal,
      );
      const y = await listenOver(server.url, "y", { resourcesListChanged: true }, stop.signal);
      const heard = (got: typeof x, method: string, uri?: string) =>
        got.some((n) => n.method === method && (uri === undefined || n.params?.uri === uri));
      writeFileSync(path.join(dir, "MEMORY.md"), "# Memory\n\nx's third\n");
      await expect.poll(() => heard(x, "notifications/resources/updated", MEMORY), POLL).toBe(true);
      const answer = (await (
        await post(server.url, "x", 2, "tools/call", { name: "exec", arguments: { command: SPILL } })
      ).text()) as string;
      expect(answer).toContain("clawtools://runtime/exec-output/");
      await expect.poll(() => heard(x, "notifications/resources/list_changed"), POLL).toBe(true);
      await quiet();
      // y's session ran nothing: the spill is x's alone (and y asked for no memory updates)
      expect(y.map((n) => n.method)).toEqual(["notifications/subscriptions/acknowledged"]);
    } finally {
      stop.abort();
    }
  }, 60_000);
});
