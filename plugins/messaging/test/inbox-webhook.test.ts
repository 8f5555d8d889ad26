import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterAll, describe, expect, it } from "vitest";
import type { InboxEntry } from "../src/channels/inbox.js";
import { signWebhook } from "../src/channels/webhook.js";
import { createMessagingPlugin, type MessagingPluginOptions } from "../src/plugin.js";
import { fakeServer, reply } from "./fake-server.js";

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const body = (r: AgentToolResult<unknown>) => JSON.parse(text(r));
const error = (r: AgentToolResult<unknown>) => (r.isError ? String(body(r).error) : "");

function setup(options: MessagingPluginOptions = {}) {
  const workspace = mkdtempSync(path.join(tmpdir(), "msg-ws-"));
  const stateDir = mkdtempSync(path.join(tmpdir(), "msg-state-"));
  const plugin = createMessagingPlugin(options);
  const set = createToolset({ plugins: [plugin], context: { workspaceDir: workspace, stateDir } });
  const tool = set.tools.find((t) => t.name === "message")!;
  return {
    plugin,
    workspace,
    stateDir,
    tool,
    call: (args: Record<string, unknown>) => tool.execute("m", args),
  };
}

describe("inbox channel (no account needed)", () => {
  it("is on when nothing is configured: send, event, read back, search", async () => {
    const { plugin, call, tool, workspace, stateDir } = setup();
    const schema = tool.parameters as { properties: Record<string, { enum?: string[] }> };
    expect(schema.properties.action!.enum).toEqual(["send", "reply", "thread-reply", "read", "search"]);
    expect(schema.properties.pollOption).toBeUndefined(); // no configured channel takes polls
    const seen: InboxEntry[] = [];
    plugin.events.on("message", (e) => seen.push(e));
    writeFileSync(path.join(workspace, "report.txt"), "numbers");
    const first = body(await call({ action: "send", target: "ops", message: "deploy done" }));
    expect(first).toMatchObject({ channel: "inbox", to: "ops", via: "direct" });
    await call({ action: "send", target: "ops", message: "see attachment", media: "report.txt" });
    await call({ action: "send", target: "dev", message: "unrelated" });
    expect(seen.map((e) => e.text)).toEqual(["deploy done", "see attachment", "unrelated"]);
    expect(seen[1]!.media).toMatchObject({ filename: "report.txt", contentType: "text/plain", bytes: 7 });
    expect(seen[1]!.media!.path.startsWith(stateDir)).toBe(true);
    expect(readFileSync(seen[1]!.media!.path, "utf8")).toBe("numbers");
    const read = body(await call({ action: "read", target: "ops" }));
    expect(read.messages.map((m: InboxEntry) => m.text)).toEqual(["deploy done", "see attachment"]);
    expect(read.messages[0].id).toBe(first.result.messageId);
    const found = body(await call({ action: "search", query: "UNRELATED" }));
    expect(found.count).toBe(1);
    const outside = await call({ action: "send", target: "ops", media: "../../etc/passwd" });
    expect(error(outside)).toContain("Path escapes sandbox root");
  });

  it("keeps every line whole under concurrent sends", async () => {
    const { call, stateDir } = setup();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => call({ action: "send", target: "t", message: `m${i}` })),
    );
    const lines = readFileSync(path.join(stateDir, "messaging", "inbox.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(lines).toHaveLength(50);
    expect(new Set(lines.map((l) => JSON.parse(l).text)).size).toBe(50);
  });
});

describe("webhook channel", async () => {
  const secret = "shh";
  const received: Array<{ key: string; valid: boolean; payload: any }> = [];
  let failNext = 0;
  const seenKeys = new Set<string>();
  const server = await fakeServer((req, res) => {
    const timestamp = String(req.headers["x-clawtools-timestamp"]);
    const valid =
      req.headers["x-clawtools-signature"] === signWebhook(secret, timestamp, req.raw.toString("utf8"));
    const key = String(req.headers["idempotency-key"]);
    received.push({ key, valid, payload: req.json });
    if (failNext > 0) {
      failNext--;
      return reply(res, 500, { error: "try again" });
    }
    seenKeys.add(key);
    reply(res, 200, { id: `hook-${seenKeys.size}` });
  });
  afterAll(() => server.close());
  const configured = (extra: Record<string, unknown> = {}) =>
    setup({
      channels: {
        webhook: {
          url: `${server.base}/hook`,
          secret,
          allowPrivateNetwork: true,
          retryDelayMs: 20,
          ...extra,
        },
      },
    });

  it("delivers a signed POST the receiver can verify", async () => {
    const { call } = configured();
    const sent = body(
      await call({ action: "send", target: "room", message: "hello", idempotencyKey: "k-1" }),
    );
    expect(sent.result).toMatchObject({ messageId: "hook-1", attempts: 1 });
    expect(received.at(-1)).toMatchObject({
      key: "k-1",
      valid: true,
      payload: { to: "room", text: "hello", idempotencyKey: "k-1" },
    });
  });

  it("retries after a 500 with the same key, and does not deliver an idempotent resend twice", async () => {
    const { call } = configured();
    failNext = 1;
    const before = received.length;
    const sent = body(
      await call({ action: "send", target: "room", message: "retry me", idempotencyKey: "k-2" }),
    );
    expect(sent.result.attempts).toBe(2);
    expect(received.slice(before).map((r) => r.key)).toEqual(["k-2", "k-2"]);
    const again = body(
      await call({ action: "send", target: "room", message: "retry me", idempotencyKey: "k-2" }),
    );
    expect(again.result).toMatchObject({ deduplicated: true, messageId: sent.result.messageId });
    expect(received.length).toBe(before + 2);
  });

  it("carries media inline, and refuses a private URL unless allowed", async () => {
    const { call, workspace } = configured();
    writeFileSync(path.join(workspace, "a.txt"), "attached");
    await call({ action: "send", target: "room", media: "a.txt" });
    expect(received.at(-1)!.payload.media).toEqual({
      filename: "a.txt",
      contentType: "text/plain",
      base64: Buffer.from("attached").toString("base64"),
    });
    const strict = setup({ channels: { webhook: { url: `${server.base}/hook`, secret } } });
    const before = received.length;
    const refused = await strict.call({ action: "send", target: "room", message: "x" });
    expect(error(refused)).toBe(
      "webhook URL refused: Blocked hostname or private/internal/special-use IP address (set channels.webhook.allowPrivateNetwork to allow it).",
    );
    expect(received.length).toBe(before);
  });
});
