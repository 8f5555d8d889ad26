import { wrapExternalContent } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { createWebFetchTool, type WebFetchResult } from "../src/index.js";
import { serve } from "./server.js";

// OpenClaw 9.6's budgets for what web_fetch puts in the context (agents/tools/web-fetch.ts):
// the warning and the title are wrapped within min(512, maxChars / 2) characters, each at most
// 256 inside its markers, and come off the body's maxChars; a body is read up to 750,000 bytes
// (DEFAULT_FETCH_MAX_RESPONSE_BYTES) and a cut one says "Response body incomplete after N bytes."

const allowLoopback = { allowPrivateNetwork: true };
/** What the markers of a wrapped field take (no banner). */
const MARKERS = wrapExternalContent("", { source: "Web Fetch" }).length;
const inner = (wrapped: string) => /\n---\n([\s\S]*)\n<<<END_EXTERNAL_UNTRUSTED_CONTENT/.exec(wrapped)?.[1];

const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><article><h1>Heading</h1>${"<p>A readable paragraph with plenty of words so the extractor keeps it as content. </p>".repeat(400)}</article></body></html>`;

describe("web_fetch: OpenClaw 9.6's metadata and download budgets", () => {
  it("takes the wrapped title off maxChars, and cuts a title to 256 characters", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page("T".repeat(300)));
    });
    const tool = createWebFetchTool({}, allowLoopback);
    const d = (await tool.execute("c", { url: `${server.url}/a`, maxChars: 3000 })).details as WebFetchResult;
    expect(inner(d.title!)).toBe("T".repeat(256));
    expect(d.title!.length).toBe(MARKERS + 256);
    // the body gets what the title left: the whole answer is the 3,000 characters asked for
    expect(d.text.length).toBe(3000 - d.title!.length);
    expect(d.truncated).toBe(true);
  });

  it("shares min(512, maxChars / 2) between the fields: a small maxChars keeps less of the title", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page("Short title of a page"));
    });
    const tool = createWebFetchTool({}, allowLoopback);
    const room = 200 - MARKERS; // maxChars 400: 200 for metadata, less the markers
    const d = (await tool.execute("c", { url: `${server.url}/b`, maxChars: 400 })).details as WebFetchResult;
    expect(inner(d.title!)).toBe("Short title of a page".slice(0, room));
    // too small for the content beside the spill footer: the footer alone, still within the budget
    expect(d.text).toMatch(/^\[Full output: .*\]$/);
    expect(d.text.length).toBeLessThanOrEqual(400 - d.title!.length);
    // no room for markers at all: no title, and the result says something was left out
    const tiny = (await tool.execute("c", { url: `${server.url}/b`, maxChars: 100 }))
      .details as WebFetchResult;
    expect(tiny.title).toBeUndefined();
    expect(tiny.truncated).toBe(true);
  });

  it("reads 750,000 bytes by default and says the body is incomplete, within maxChars", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end("y".repeat(800_000));
    });
    const d = (await createWebFetchTool({}, allowLoopback).execute("c", { url: `${server.url}/big` }))
      .details as WebFetchResult;
    expect(d.rawLength).toBe(750_000);
    expect(inner(d.warning!)).toBe("Response body incomplete after 750000 bytes.");
    expect(d.text.length).toBe(20_000 - d.warning!.length);
    expect(d.truncated).toBe(true);
    const raised = createWebFetchTool({}, { ...allowLoopback, maxResponseBytes: 790_000 });
    const whole = (await raised.execute("c", { url: `${server.url}/big` })).details as WebFetchResult;
    expect(whole.rawLength).toBe(790_000);
    expect(inner(whole.warning!)).toBe("Response body incomplete after 790000 bytes.");
  });
});
