import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMediaPlugin, type MediaPluginOptions, NO_IMAGE_MODEL } from "../src/plugin.js";
import { expectWire, fakeServer, sse } from "./fake-server.js";

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const ANSWER = "A small red square.";

// What each provider received, decoded: [mimeType, width] per image.
const seen: Array<{ api: string; images: Array<{ mime: string; data: string }> }> = [];

const server = await fakeServer(async (req, res) => {
  if (req.path === "/openai/chat/completions") {
    expectWire(req.headers.authorization === "Bearer sk-openai", "Bearer key");
    expectWire(
      req.json?.stream === true && req.json.model === "gpt-vision",
      "streamed chat completion for the model",
    );
    const parts = req.json.messages.at(-1).content as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    expectWire(parts[0]?.type === "text" && parts[0].text, "text part first");
    const images = parts
      .filter((p) => p.type === "image_url")
      .map((p) => {
        const m = /^data:([^;]+);base64,(.*)$/.exec(p.image_url!.url)!;
        return { mime: m[1]!, data: m[2]! };
      });
    expectWire(images.length > 0, "image_url data-URL parts");
    seen.push({ api: "openai", images });
    const chunk = (delta: object, finish: string | null, extra: object = {}) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-vision",
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
    return sse(res, [
      { data: chunk({ role: "assistant", content: ANSWER }, null) },
      { data: chunk({}, "stop", { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }) },
      { data: "[DONE]" },
    ]);
  }
  if (req.path === "/anthropic/v1/messages") {
    expectWire(
      req.headers["x-api-key"] === "sk-ant" && req.headers["anthropic-version"],
      "x-api-key and anthropic-version",
    );
    const content = req.json.messages.at(-1).content as Array<{
      type: string;
      source?: { type: string; media_type: string; data: string };
    }>;
    const images = content
      .filter((c) => c.type === "image")
      .map((c) => {
        expectWire(c.source?.type === "base64", "base64 image source");
        return { mime: c.source!.media_type, data: c.source!.data };
      });
    expectWire(images.length > 0 && req.json.max_tokens > 0, "image blocks and max_tokens");
    seen.push({ api: "anthropic", images });
    return sse(res, [
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            content: [],
            model: "claude-vision",
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
      },
      {
        event: "content_block_start",
        data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: ANSWER } },
      },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      {
        event: "message_delta",
        data: {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 5 },
        },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
  }
  if (req.path.startsWith("/gemini/models/gemini-vision:streamGenerateContent")) {
    expectWire(req.headers["x-goog-api-key"] === "g-key", "x-goog-api-key");
    const parts = req.json.contents.at(-1).parts as Array<{
      text?: string;
      inlineData?: { mimeType: string; data: string };
    }>;
    const images = parts
      .filter((p) => p.inlineData)
      .map((p) => ({ mime: p.inlineData!.mimeType, data: p.inlineData!.data }));
    expectWire(images.length > 0, "inlineData parts");
    seen.push({ api: "gemini", images });
    return sse(res, [
      {
        data: {
          candidates: [
            { content: { role: "model", parts: [{ text: ANSWER }] }, finishReason: "STOP", index: 0 },
          ],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        },
      },
    ]);
  }
  if (req.path === "/files/photo.png") {
    return void res.writeHead(200, { "content-type": "image/png" }).end(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#00f" } })
        .png()
        .toBuffer(),
    );
  }
  res.writeHead(404).end();
});
afterAll(() => server.close());

let workspace: string;
let redPng: Buffer;
beforeAll(async () => {
  workspace = mkdtempSync(path.join(tmpdir(), "image-ws-"));
  redPng = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#f00" } })
    .png()
    .toBuffer();
  writeFileSync(path.join(workspace, "red.png"), redPng);
  writeFileSync(
    path.join(workspace, "big.jpg"),
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#0a0" } })
      .jpeg()
      .toBuffer(),
  );
  writeFileSync(path.join(workspace, "notes.txt"), "not an image");
});

function imageTool(options: MediaPluginOptions) {
  const set = createToolset({
    plugins: [createMediaPlugin({ ...options, env: {} })],
    context: { workspaceDir: workspace, stateDir: workspace },
    policy: { profile: "full" },
  });
  return { set, tool: set.tools.find((t) => t.name === "image") };
}
const call = async (options: MediaPluginOptions, args: Record<string, unknown>) =>
  (await imageTool(options).tool!.execute("i", args)) as AgentToolResult<any>;

const openai: MediaPluginOptions = {
  image: {
    model: "openai/gpt-vision",
    baseUrl: `${server.base}/openai`,
    apiKey: "sk-openai",
    allowPrivateNetwork: true,
  },
};

describe("image", () => {
  it("is left out with a reason when no image model is configured", () => {
    const { set, tool } = imageTool({});
    expect(tool).toBeUndefined();
    expect(set.diagnostics.find((d) => d.toolId === "image")?.reason).toBe(NO_IMAGE_MODEL);
  });

  it("is served as view_image too (OpenClaw 9.6's name), the same tool", async () => {
    const { set, tool } = imageTool(openai);
    const view = set.tools.find((t) => t.name === "view_image")!;
    expect(view.parameters).toEqual(tool!.parameters);
    expect(view.description).toBe(tool!.description);
    const result = (await view.execute("v", { image: "red.png" })) as AgentToolResult<any>;
    expect(text(result)).toBe(ANSWER);
    expect(result.details).toMatchObject({ model: "openai/gpt-vision", image: "red.png" });
    // twins in core's catalog: a policy naming either name names both (no way around a deny)
    for (const deny of ["image", "view_image"]) {
      const denied = createToolset({
        plugins: [createMediaPlugin({ ...openai, env: {} })],
        context: { workspaceDir: workspace, stateDir: workspace },
        policy: { profile: "full", global: { deny: [deny] } },
      });
      expect(denied.tools.map((t) => t.name).filter((n) => n.includes("image"))).toEqual([]);
    }
  });

  it("checks the model's form when built, and resolves its provider and key on the first call", async () => {
    const bad = imageTool({ image: { model: "gpt-4o" } });
    expect(bad.tool).toBeUndefined();
    expect(bad.set.diagnostics.find((d) => d.toolId === "image")?.reason).toBe(
      'media.image.model: model must be "provider/model" (got "gpt-4o")',
    );
    // no key for the provider anywhere (env is empty): refused at the call, naming what to set
    const keyless = await call({ image: { model: "openai/gpt-4o-mini" } }, { image: "red.png" });
    expect(keyless.isError).toBe(true);
    expect(JSON.parse(text(keyless)).error).toMatch(
      /^media\.image\.model: openai\/gpt-4o-mini: .*OPENAI_API_KEY/,
    );
  });

  it("sends each wire format the provider documents and returns its answer", async () => {
    for (const [options, api] of [
      [openai, "openai"],
      [
        {
          image: { model: "anthropic/claude-vision", baseUrl: `${server.base}/anthropic`, apiKey: "sk-ant" },
        },
        "anthropic",
      ],
      [
        { image: { model: "google/gemini-vision", baseUrl: `${server.base}/gemini`, apiKey: "g-key" } },
        "gemini",
      ],
    ] as const) {
      const result = await call(options, { image: "red.png", prompt: "What colour?" });
      expect(text(result)).toBe(ANSWER);
      expect(seen.at(-1)!.api).toBe(api);
      expect(seen.at(-1)!.images).toEqual([{ mime: "image/png", data: redPng.toString("base64") }]);
      expect(result.details.image).toBe("red.png");
    }
  });

  it("reads paths, file:// URLs, data: URLs and loopback http, deduped in order", async () => {
    const dataUrl = `data:image/png;base64,${redPng.toString("base64")}`;
    const result = await call(openai, {
      images: [
        "@red.png",
        pathToFileURL(path.join(workspace, "red.png")).href,
        dataUrl,
        `${server.base}/files/photo.png`,
        "red.png",
      ],
    });
    expect(text(result)).toBe(ANSWER);
    expect(result.details.images.map((i: { image: string }) => i.image)).toEqual([
      "red.png",
      pathToFileURL(path.join(workspace, "red.png")).href,
      dataUrl,
      `${server.base}/files/photo.png`,
    ]);
    expect(seen.at(-1)!.images).toHaveLength(4);
  });

  it("downscales an oversized image before sending it", async () => {
    const result = await call(openai, { image: "big.jpg" });
    expect(result.details.resized).toEqual([{ image: "big.jpg", from: [3000, 2000], to: [1568, 1045] }]);
    const sent = Buffer.from(seen.at(-1)!.images[0]!.data, "base64");
    const meta = await sharp(sent).metadata();
    expect([meta.width, meta.height]).toEqual([1568, 1045]);
  });

  it("answers OpenClaw's errors", async () => {
    const many = await call(openai, { images: ["a.png", "b.png", "c.png"], maxImages: 2 });
    expect(text(many)).toBe("Too many images: 3 provided, maximum is 2. Please reduce the number of images.");
    expect(many.details).toEqual({ error: "too_many_images", count: 3, max: 2 });
    expect(many.isError).toBe(true);
    const before = seen.length;
    const tooMany = await call(openai, { images: Array.from({ length: 21 }, (_, i) => `img-${i}.png`) });
    expect(tooMany.isError).toBe(true);
    expect(text(tooMany)).toBe(
      "Too many images: 21 provided, maximum is 20. Please reduce the number of images.",
    );
    // the cap can be lowered, never raised past the tool's maximum
    const raised = await call(openai, { image: "red.png", maxImages: 21 });
    expect(raised.isError).toBe(true);
    expect(JSON.parse(text(raised)).error).toBe(
      'Validation failed for tool "image":\n  - maxImages: must be <= 20\n\nReceived arguments:\n{\n  "image": "red.png",\n  "maxImages": 21\n}',
    );
    expect(seen.length).toBe(before);
    const ftp = await call(openai, { image: "ftp://example.com/x.png" });
    expect(text(ftp)).toBe(
      "Unsupported image reference: ftp://example.com/x.png. Use a file path, a file:// URL, a data: URL, or an http(s) URL.",
    );
    expect(ftp.details).toEqual({ error: "unsupported_image_reference", image: "ftp://example.com/x.png" });
    const none = await call(openai, {});
    expect(JSON.parse(text(none)).error).toBe("image required");
    const empty = await call(openai, { images: ["red.png", " "] });
    expect(JSON.parse(text(empty)).error).toBe("image required (empty string in array)");
    const notImage = await call(openai, { image: "notes.txt" });
    expect(JSON.parse(text(notImage)).error).toBe(
      "Unsupported media type: not an image (png, jpeg, gif or webp)",
    );
    const outside = await call(openai, { image: "../../etc/passwd" });
    expect(JSON.parse(text(outside)).error).toContain("Path escapes sandbox root");
    const strict = await call(
      { image: { ...openai.image, allowPrivateNetwork: false } },
      { image: `${server.base}/files/photo.png` },
    );
    expect(JSON.parse(text(strict)).error).toBe(
      "Image URL refused: Blocked hostname or private/internal/special-use IP address",
    );
    const small = await call(openai, { image: "big.jpg", maxBytesMb: 0.001 });
    expect(JSON.parse(text(small)).error).toContain("Image too large: big.jpg");
  });
});
