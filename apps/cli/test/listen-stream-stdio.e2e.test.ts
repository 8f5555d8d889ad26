import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, POLL } from "./support/cli.js";
import { flakyServerConfig } from "./support/flaky-server.js";
import { type Message, type RawStdio, rawStdio, SUBSCRIPTION_ID } from "./support/raw-stdio.js";

// A 2026-07-28 host on `clawtools serve` over stdio hears of changes on its subscriptions/listen
// streams as one over HTTP does: tools/list_changed when a mounted MCP server goes and comes back,
// resources/list_changed when a command's output spills, resources/updated for a URI it asked
// about, each stamped with the stream it belongs to. Raw JSON lines, as the revision's wire is written.

const names = async (serve: RawStdio) =>
  ((await serve.ask("tools/list")).result.tools as Array<{ name: string }>).map((t) => t.name);
/** What stream `id` heard of `method`. */
const heard = (serve: RawStdio, id: number, method: string) =>
  serve.notifications.filter(
    (n: Message) => n.method === method && n.params?._meta?.[SUBSCRIPTION_ID] === id,
  );
const readText = async (serve: RawStdio, uri: string) =>
  (await serve.ask("resources/read", { uri })).result.contents[0].text as string;

describe("clawtools serve (stdio): subscriptions/listen (2026-07-28)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-listen-stdio-"));
  let serve: RawStdio;

  beforeAll(async () => {
    ensureBuilt();
    const { config } = flakyServerConfig(dir, 0);
    // a small result limit: a few thousand lines of output spill into a resource
    serve = rawStdio(["serve", "--config", config, "--workspace", dir], {
      cwd: dir,
      env: { ...process.env, OPENCLAW_BASH_MAX_OUTPUT_CHARS: "2000" },
    });
    const discovered = await serve.ask("server/discover");
    expect(discovered.result.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    // its streams still open, serve stops at the end of its input as any stdio server must
    if (serve) expect(await serve.close()).toBe(0);
  });

  it("hears tools/list_changed when a mounted server goes away and comes back", async () => {
    const stream = serve.listen({ toolsListChanged: true, promptsListChanged: true });
    // acknowledged with what serve can deliver: it has no prompts
    await expect
      .poll(
        () =>
          heard(serve, stream, "notifications/subscriptions/acknowledged").map((n) => n.params.notifications),
        POLL,
      )
      .toEqual([{ toolsListChanged: true }]);
    expect(await names(serve)).toContain("flaky__ping");
    // the server's process ends mid-call: its tools go, and come back on the first retry
    await serve.ask("tools/call", { name: "flaky__crash", arguments: {} });
    await expect
      .poll(() => heard(serve, stream, "notifications/tools/list_changed"), { timeout: 30_000 })
      .toHaveLength(2);
    expect(await names(serve)).toContain("flaky__ping");
    const pong = await serve.ask("tools/call", { name: "flaky__ping", arguments: { text: "back" } });
    expect(pong.result.content).toEqual([{ type: "text", text: "pong: back" }]);
  }, 60_000);

  it("hears resources/list_changed when output spills, and resources/updated on the stream that asked for the URI", async () => {
    const stream = serve.listen({ resourcesListChanged: true });
    await expect
      .poll(() => heard(serve, stream, "notifications/subscriptions/acknowledged"), POLL)
      .toHaveLength(1);
    const spilled = await serve.ask("tools/call", {
      name: "exec",
      arguments: { command: 'for i in $(seq 1 3000); do echo "line $i"; done' },
    });
    const link = (spilled.result.content as Message[]).find((c) => c.type === "resource_link")!;
    expect(link.uri).toMatch(/^clawtools:\/\/runtime\/exec-output\/.+/);
    await expect
      .poll(() => heard(serve, stream, "notifications/resources/list_changed").length, POLL)
      .toBeGreaterThan(0);

    // a command in the background whose output spills, then ends a while later
    const started = await serve.ask("tools/call", {
      name: "exec",
      arguments: {
        command: 'for i in $(seq 1 3000); do echo "line $i"; done; sleep 2; echo finished-marker',
        background: true,
      },
    });
    const uri = `clawtools://runtime/exec-output/${started.result.structuredContent.sessionId}`;
    const own = serve.listen({ resourceSubscriptions: [uri] });
    await expect
      .poll(() => heard(serve, own, "notifications/resources/updated").map((n) => n.params.uri), {
        timeout: 20_000,
      })
      .toContain(uri);
    await expect.poll(() => readText(serve, uri), { timeout: 20_000 }).toContain("finished-marker");
    // the first stream did not ask about that URI: it hears no update of it
    expect(heard(serve, stream, "notifications/resources/updated")).toEqual([]);
  }, 60_000);
});
