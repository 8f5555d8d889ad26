import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterAll, describe, expect, it } from "vitest";
import { createMessagingPlugin, type MessagingPluginOptions } from "../src/plugin.js";
import { expectWire, fakeServer, reply } from "./fake-server.js";

const TOKEN = "123456:secret-token";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const body = (r: AgentToolResult<unknown>) => JSON.parse(text(r));
const error = (r: AgentToolResult<unknown>) => (r.isError ? String(body(r).error) : "");

const servers: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function messageTool(options: MessagingPluginOptions) {
  const workspace = mkdtempSync(path.join(tmpdir(), "msg-ws-"));
  writeFileSync(path.join(workspace, "pixel.png"), PNG);
  writeFileSync(path.join(workspace, "voice.wav"), Buffer.alloc(64, 1));
  const set = createToolset({
    plugins: [createMessagingPlugin(options)],
    context: { workspaceDir: workspace, stateDir: mkdtempSync(path.join(tmpdir(), "msg-state-")) },
    policy: { profile: "messaging" },
  });
  const tool = set.tools.find((t) => t.name === "message");
  if (!tool) throw new Error(`message tool missing: ${JSON.stringify(set.diagnostics)}`);
  return { tool, call: (args: Record<string, unknown>) => tool.execute("m", args) };
}

describe("telegram (Bot API)", async () => {
  const server = await fakeServer((req, res) => {
    const method = req.path.split("/").pop();
    expectWire(req.method === "POST", "POST");
    expectWire(req.path.startsWith(`/bot${TOKEN}/`), "token in the path");
    const fields = req.json ?? req.multipart;
    expectWire(fields?.chat_id === "42" || fields?.chat_id === 42, "chat_id");
    if (method === "sendMessage") expectWire(typeof req.json?.text === "string", "text");
    if (method === "sendPhoto") expectWire(typeof req.multipart?.photo === "object", "photo file part");
    if (method === "sendVoice") expectWire(typeof req.multipart?.voice === "object", "voice file part");
    if (method === "sendDocument")
      expectWire(typeof req.multipart?.document === "object", "document file part");
    if (method === "sendPoll") {
      expectWire(typeof req.json?.question === "string", "question");
      expectWire(
        Array.isArray(req.json?.options) && req.json.options.every((o: { text?: string }) => o.text),
        "InputPollOption[]",
      );
    }
    reply(res, 200, { ok: true, result: { message_id: 77, chat: { id: 42 }, date: 1 } });
  });
  servers.push(server);
  const { call } = messageTool({ channels: { telegram: { botToken: TOKEN, baseUrl: server.base } } });

  it("sends text, replies in a thread, photos, voice, documents and polls", async () => {
    await call({ action: "reply", target: "42", message: "re", replyTo: "5" });
    expect(server.requests.at(-1)!.json).toEqual({
      chat_id: "42",
      reply_parameters: { message_id: 5 },
      text: "re",
    });
    const sent = body(await call({ action: "send", target: "42", message: "hi <think>plan</think>there" }));
    expect(sent).toMatchObject({
      channel: "telegram",
      to: "42",
      via: "direct",
      result: { messageId: "77", chatId: "42" },
    });
    expect(server.requests.at(-1)!.json).toEqual({ chat_id: "42", text: "hi there" });
    await call({ action: "thread-reply", target: "42", message: "in thread", threadId: "9", replyTo: "5" });
    expect(server.requests.at(-1)!.json).toMatchObject({
      message_thread_id: 9,
      reply_parameters: { message_id: 5 },
    });
    await call({ action: "send", target: "42", media: "pixel.png", caption: "a pixel" });
    const photo = server.requests.at(-1)!;
    expect(photo.path).toBe(`/bot${TOKEN}/sendPhoto`);
    expect(photo.multipart).toMatchObject({
      caption: "a pixel",
      photo: { name: "pixel.png", type: "image/png", size: PNG.length },
    });
    await call({
      action: "send",
      target: "42",
      buffer: Buffer.from("ogg!").toString("base64"),
      filename: "note.ogg",
      asVoice: true,
    });
    expect(server.requests.at(-1)!.path).toBe(`/bot${TOKEN}/sendVoice`);
    await call({ action: "send", target: "42", media: "pixel.png", asDocument: true });
    expect(server.requests.at(-1)!.path).toBe(`/bot${TOKEN}/sendDocument`);
    await call({
      action: "poll",
      target: "42",
      pollQuestion: "Lunch?",
      pollOption: ["soup", "salad"],
      pollMulti: true,
    });
    expect(server.requests.at(-1)!.json).toMatchObject({ question: "Lunch?", allows_multiple_answers: true });
  });

  it("refuses what it cannot carry instead of dropping it", async () => {
    const before = server.requests.length;
    const voice = await call({ action: "send", target: "42", media: "voice.wav", asVoice: true });
    expect(error(voice)).toBe(
      "telegram cannot send audio/wav as a voice note (sendVoice takes OGG/Opus, MP3 or M4A); send it as a document instead.",
    );
    expect(error(await call({ action: "react", target: "42", messageId: "1", emoji: "👍" }))).toContain(
      "must be equal to one of the allowed values",
    );
    expect(error(await call({ action: "poll", target: "42", pollQuestion: "?", pollOption: ["one"] }))).toBe(
      "pollOption requires at least two values",
    );
    expect(error(await call({ action: "send", target: "42", media: "data:image/png;base64,AAAA" }))).toBe(
      "media does not take data: URLs; pass the content as base64 in buffer, with filename and contentType.",
    );
    expect(server.requests.length).toBe(before);
  });

  it("answers dryRun with exactly what would be sent, token redacted, and sends nothing", async () => {
    const before = server.requests.length;
    const dry = body(await call({ action: "send", target: "42", message: "hello", dryRun: true }));
    expect(dry).toEqual({
      ok: true,
      dryRun: true,
      channel: "telegram",
      action: "send",
      to: "42",
      requests: [
        {
          method: "POST",
          url: `${server.base}/bot<redacted>/sendMessage`,
          headers: {},
          json: { chat_id: "42", text: "hello" },
        },
      ],
    });
    expect(server.requests.length).toBe(before);
  });
});

describe("slack (Web API)", async () => {
  const server = await fakeServer((req, res) => {
    // the upload URL Slack hands out takes the raw bytes, no token
    if (req.path.startsWith("/upload/")) {
      expectWire(req.method === "POST" && req.raw.length > 0, "file bytes");
      return reply(res, 200);
    }
    expectWire(req.headers.authorization === "Bearer xoxb-test", "Bearer token");
    switch (req.path) {
      case "/api/chat.postMessage":
        expectWire(req.json?.channel === "C1" && typeof req.json.text === "string", "channel and text");
        return reply(res, 200, { ok: true, channel: "C1", ts: "1700000000.000100" });
      case "/api/reactions.add":
        expectWire(
          req.json?.name === "thumbsup" && req.json.timestamp === "1700000000.000100",
          "name without colons, timestamp",
        );
        return reply(res, 200, { ok: true });
      case "/api/files.getUploadURLExternal":
        expectWire(
          req.form?.filename === "pixel.png" && req.form.length === String(PNG.length),
          "form filename and length",
        );
        return reply(res, 200, { ok: true, upload_url: `${server.base}/upload/F1`, file_id: "F1" });
      case "/api/files.completeUploadExternal":
        expectWire(
          req.json?.files?.[0]?.id === "F1" && req.json.channel_id === "C1",
          "files[].id and channel_id",
        );
        return reply(res, 200, { ok: true, files: [{ id: "F1" }] });
      default:
        return reply(res, 404, { ok: false, error: "unknown_method" });
    }
  });
  servers.push(server);
  const { call } = messageTool({
    channels: { slack: { token: "xoxb-test", baseUrl: `${server.base}/api` } },
  });

  it("posts, replies in threads, reacts and uploads in three steps", async () => {
    const sent = body(await call({ action: "send", target: "C1", message: "hello" }));
    expect(sent.result).toEqual({ messageId: "1700000000.000100", chatId: "C1" });
    await call({ action: "reply", target: "C1", message: "threaded", replyTo: "1700000000.000100" });
    expect(server.requests.at(-1)!.json).toMatchObject({ thread_ts: "1700000000.000100" });
    await call({ action: "thread-reply", target: "C1", message: "in thread", threadId: "1700000000.000200" });
    expect(server.requests.at(-1)!.json).toEqual({
      channel: "C1",
      text: "in thread",
      thread_ts: "1700000000.000200",
    });
    await call({ action: "react", target: "C1", messageId: "1700000000.000100", emoji: ":thumbsup:" });
    expect(server.requests.at(-1)!.path).toBe("/api/reactions.add");
    const upload = body(await call({ action: "send", target: "C1", media: "pixel.png", caption: "look" }));
    expect(upload.result).toMatchObject({ fileId: "F1" });
    expect(server.requests.slice(-3).map((r) => r.path)).toEqual([
      "/api/files.getUploadURLExternal",
      "/upload/F1",
      "/api/files.completeUploadExternal",
    ]);
    expect(server.requests.at(-2)!.raw.equals(PNG)).toBe(true);
    expect(server.requests.at(-1)!.json).toMatchObject({ initial_comment: "look" });
    expect(
      error(await call({ action: "poll", target: "C1", pollQuestion: "?", pollOption: ["a", "b"] })),
    ).toContain("must be equal to one of the allowed values");
  });

  it("surfaces a Slack error instead of reporting success", async () => {
    const failed = await call({ action: "send", target: "C404", message: "x" });
    expect(failed.isError).toBe(true);
  });
});

describe("discord (REST v10)", async () => {
  const server = await fakeServer((req, res) => {
    expectWire(req.headers.authorization === "Bot discord-token", "Bot token");
    const reaction = /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/.exec(req.path);
    if (reaction) {
      expectWire(
        req.method === "PUT" && decodeURIComponent(reaction[3]!) === "👍",
        "PUT with the url-encoded emoji",
      );
      return reply(res, 204);
    }
    const post = /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(req.path);
    expectWire(post && req.method === "POST", "POST /channels/{id}/messages");
    if (req.multipart) {
      const payload = JSON.parse(req.multipart.payload_json as string);
      expectWire(payload.attachments?.[0]?.id === 0, "attachments[0].id matches files[0]");
      expectWire(typeof req.multipart["files[0]"] === "object", "files[0] part");
    } else expectWire(typeof req.json?.content === "string", "content");
    return reply(res, 200, { id: "9001", channel_id: post![1] });
  });
  servers.push(server);
  const { call } = messageTool({
    channels: { discord: { botToken: "discord-token", baseUrl: `${server.base}/api/v10` } },
  });

  it("sends, replies, attaches and reacts", async () => {
    expect(body(await call({ action: "send", target: "555", message: "yo" })).result).toEqual({
      messageId: "9001",
      chatId: "555",
    });
    await call({ action: "reply", target: "555", message: "re", replyTo: "9001" });
    expect(server.requests.at(-1)!.json).toEqual({
      content: "re",
      message_reference: { message_id: "9001" },
    });
    await call({ action: "send", target: "555", media: "pixel.png", message: "pic" });
    expect(server.requests.at(-1)!.multipart!["files[0]"]).toMatchObject({
      name: "pixel.png",
      size: PNG.length,
    });
    expect(
      body(await call({ action: "react", target: "555", messageId: "9001", emoji: "👍" })).result,
    ).toEqual({
      messageId: "9001",
      chatId: "555",
    });
  });

  it("refuses an attachment over its limit with the channel named", async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 1).toString("base64");
    const refused = await call({ action: "send", target: "555", buffer: big, filename: "big.bin" });
    expect(error(refused)).toBe(
      `discord cannot take big.bin (${11 * 1024 * 1024} bytes): its limit is ${10 * 1024 * 1024} bytes.`,
    );
  });
});

describe("routing rules", () => {
  it("needs an explicit target and a channel when several are configured", async () => {
    const { call, tool } = messageTool({
      channels: {
        telegram: { botToken: TOKEN, baseUrl: "http://127.0.0.1:9" },
        slack: { token: "x", baseUrl: "http://127.0.0.1:9" },
      },
    });
    expect(Object.keys((tool.parameters as { properties: object }).properties)).toContain("pollOption");
    expect(error(await call({ action: "send", channel: "telegram", message: "x" }))).toBe(
      "Explicit message target required for this run. Provide target/targets (and channel when needed).",
    );
    expect(error(await call({ action: "send", target: "1", message: "x" }))).toBe(
      "Channel is required when multiple channels are configured: telegram, slack. Pass channel to choose one.",
    );
    expect(
      error(
        await call({
          action: "poll",
          channel: "slack",
          target: "1",
          pollQuestion: "q",
          pollOption: ["a", "b"],
        }),
      ),
    ).toBe("Message action poll not supported for channel slack.");
    expect(error(await call({ action: "send", channel: "telegram", target: "1" }))).toBe(
      "send requires text or media",
    );
  });
});
