import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, type AnyAgentTool, createToolset, type Toolset } from "@clawtools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUiPlugin } from "../src/plugin.js";
import { startPages } from "./pages.js";

let pages: Awaited<ReturnType<typeof startPages>>;
let set: Toolset;
let canvas: AnyAgentTool;
let browser: AnyAgentTool;
let workspace: string;

const call = (args: Record<string, unknown>) => canvas.execute("t", args) as Promise<AgentToolResult<any>>;
const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const error = (r: AgentToolResult<unknown>) => (r.isError ? String(JSON.parse(text(r)).error) : "");
const image = (r: AgentToolResult<unknown>) => {
  const block = r.content.find((c) => c.type === "image") as { data: string; mimeType: string };
  return { ...block, bytes: Buffer.from(block.data, "base64") };
};
const pngWidth = (png: Buffer) => png.readUInt32BE(16);

beforeAll(async () => {
  pages = await startPages();
  workspace = mkdtempSync(path.join(tmpdir(), "canvas-ws-"));
  set = createToolset({
    plugins: [
      createUiPlugin({ browser: { allowPrivateNetwork: true }, canvas: { width: 800, height: 600 } }),
    ],
    context: { workspaceDir: workspace, stateDir: mkdtempSync(path.join(tmpdir(), "canvas-state-")) },
  });
  canvas = set.tools.find((t) => t.name === "canvas")!;
  browser = set.tools.find((t) => t.name === "browser")!;
});

afterAll(async () => {
  await set?.dispose();
  await pages?.close();
});

const A2UI = [
  {
    surfaceUpdate: {
      surfaceId: "main",
      components: [
        { id: "root", component: { Column: { children: { explicitList: ["title", "card"] } } } },
        { id: "title", component: { Text: { text: { literalString: "Weekly report" }, usageHint: "h1" } } },
        { id: "card", component: { Card: { child: "body" } } },
        { id: "body", component: { Text: { text: { path: "/summary" } } } },
      ],
    },
  },
  {
    dataModelUpdate: {
      surfaceId: "main",
      contents: [{ key: "summary", valueString: "All green <b>safe</b>" }],
    },
  },
  { beginRendering: { surfaceId: "main", root: "root" } },
]
  .map((m) => JSON.stringify(m))
  .join("\n");

describe("canvas in the local Chromium", () => {
  it("presents automatically when a snapshot comes first, and honours maxWidth and format", async () => {
    const first = await call({ action: "snapshot" });
    expect(first.isError).toBeFalsy();
    expect(first.details).toMatchObject({ format: "png" });
    expect(pngWidth(image(first).bytes)).toBe(800);
    const small = await call({ action: "snapshot", maxWidth: 200 });
    expect(pngWidth(image(small).bytes)).toBe(200);
    const jpeg = image(await call({ action: "snapshot", outputFormat: "jpg", quality: 50 }));
    expect(jpeg.mimeType).toBe("image/jpeg");
    expect([jpeg.bytes[0], jpeg.bytes[1]]).toEqual([0xff, 0xd8]);
  });

  it("renders A2UI that shows up in the page and in the snapshot, and is not a browser tab", async () => {
    const blank = image(await call({ action: "snapshot" })).bytes;
    expect(JSON.parse(text(await call({ action: "a2ui_push", jsonl: A2UI })))).toEqual({ ok: true });
    expect(text(await call({ action: "eval", javaScript: "document.querySelector('h1').textContent" }))).toBe(
      "Weekly report",
    );
    // bound data is text, never markup
    expect(
      text(await call({ action: "eval", javaScript: "document.querySelector('.card p').innerHTML" })),
    ).toBe("All green &lt;b&gt;safe&lt;/b&gt;");
    const drawn = image(await call({ action: "snapshot" })).bytes;
    expect(drawn.equals(blank)).toBe(false);
    const tabs = text(await browser.execute("t", { action: "tabs" }));
    expect(tabs).not.toContain("Canvas");
    await call({ action: "a2ui_reset" });
    expect(text(await call({ action: "eval", javaScript: "document.body.textContent" }))).toBe("");
  });

  it("refuses what it cannot render, leaving the canvas as it was", async () => {
    await call({ action: "a2ui_push", jsonl: A2UI });
    const unsupported = JSON.stringify({
      surfaceUpdate: {
        surfaceId: "main",
        components: [{ id: "x", component: { Video: { url: { literalString: "v" } } } }],
      },
    });
    const refused = await call({ action: "a2ui_push", jsonl: unsupported });
    expect(error(refused)).toBe(
      'A2UI line 1: component "x" uses Video; this canvas renders Text, Image, Row, Column, List, Card, Button, Divider, TextField, CheckBox',
    );
    expect(error(await call({ action: "a2ui_push", jsonl: "{not json" }))).toBe(
      "A2UI line 1: not valid JSON",
    );
    expect(error(await call({ action: "a2ui_push" }))).toBe("jsonl or jsonlPath required");
    expect(text(await call({ action: "eval", javaScript: "document.querySelector('h1').textContent" }))).toBe(
      "Weekly report",
    );
  });

  it("reads jsonlPath through the workspace containment", async () => {
    writeFileSync(path.join(workspace, "ui.jsonl"), A2UI);
    expect((await call({ action: "a2ui_push", jsonlPath: "ui.jsonl" })).isError).toBeFalsy();
    expect(error(await call({ action: "a2ui_push", jsonlPath: "../outside.jsonl" }))).toBe(
      "jsonlPath outside allowed roots",
    );
    const outside = mkdtempSync(path.join(tmpdir(), "canvas-out-"));
    writeFileSync(path.join(outside, "x.jsonl"), A2UI);
    symlinkSync(path.join(outside, "x.jsonl"), path.join(workspace, "link.jsonl"));
    expect(error(await call({ action: "a2ui_push", jsonlPath: "link.jsonl" }))).toBe(
      "jsonlPath outside allowed roots",
    );
  });

  it("navigates to URLs through the URL policy and evaluates in the page", async () => {
    await call({ action: "present", url: pages.url("/form"), width: 640, height: 480 });
    expect(text(await call({ action: "eval", javaScript: "document.title" }))).toBe("Form");
    expect(pngWidth(image(await call({ action: "snapshot" })).bytes)).toBe(640);
    expect(JSON.parse(text(await call({ action: "eval", javaScript: "void 0" })))).toEqual({ ok: true });
    expect(error(await call({ action: "navigate", url: "file:///etc/passwd" }))).toContain(
      "Only http and https URLs can be opened",
    );
  });

  it("an eval whose script never yields answers within its bound, and the next call gets a fresh canvas", async () => {
    const quick = createToolset({
      plugins: [createUiPlugin({ browser: { allowPrivateNetwork: true, actionTimeoutMs: 1_000 } })],
      context: { workspaceDir: workspace, stateDir: mkdtempSync(path.join(tmpdir(), "canvas-spin-")) },
    });
    const quickCall = (args: Record<string, unknown>) =>
      quick.tools.find((t) => t.name === "canvas")!.execute("t", args) as Promise<AgentToolResult<any>>;
    try {
      await quickCall({ action: "present", url: pages.url("/form") });
      expect(error(await quickCall({ action: "eval", javaScript: "for (;;) {}" }))).toBe(
        "The canvas did not answer the eval within 6 s: a script in it never yields. The canvas page was closed; present again (action=present) to show something.",
      );
      expect(text(await quickCall({ action: "eval", javaScript: "6 * 7" }))).toBe("42");
      await quickCall({ action: "present", url: pages.url("/form") });
      expect(text(await quickCall({ action: "eval", javaScript: "document.title" }))).toBe("Form");
    } finally {
      await quick.dispose();
    }
  }, 60_000);

  it("a present whose load timed out is stopped with one clear line; a snapshot right after answers, and the late page never lands", async () => {
    // a short action timeout: the present gives up while the page's answer is held; the answer
    // is sent as the snapshot starts (before the stop, the late commit swapped the renderer
    // under the capture, and every script in the page waited on the pending navigation)
    const held: Array<() => void> = [];
    let arrived: () => void = () => {};
    const late = createServer((_req, res) => {
      held.push(() =>
        res.writeHead(200, { "content-type": "text/html" }).end("<title>Late</title><h1>late</h1>"),
      );
      arrived();
    });
    await new Promise<void>((resolve) => late.listen(0, "127.0.0.1", resolve));
    const quick = createToolset({
      plugins: [createUiPlugin({ browser: { allowPrivateNetwork: true, actionTimeoutMs: 1_000 } })],
      context: { workspaceDir: workspace, stateDir: mkdtempSync(path.join(tmpdir(), "canvas-late-")) },
    });
    const lateCall = (args: Record<string, unknown>) =>
      quick.tools.find((t) => t.name === "canvas")!.execute("t", args) as Promise<AgentToolResult<any>>;
    try {
      const requested = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const url = `http://127.0.0.1:${(late.address() as AddressInfo).port}/late`;
      const presented = lateCall({ action: "present", url });
      await requested;
      expect(error(await presented)).toBe(
        `The page at ${url} did not finish loading within 1000 ms, so loading was stopped (the page stays at about:blank). Try again, or raise browser.actionTimeoutMs in the ui configuration for slow pages.`,
      );
      const shot = lateCall({ action: "snapshot" });
      held.shift()!();
      const result = await shot;
      expect(error(result)).toBe("");
      expect(image(result).mimeType).toBe("image/png");
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(text(await lateCall({ action: "eval", javaScript: "document.title" }))).not.toBe("Late");
    } finally {
      for (const release of held) release();
      await quick.dispose();
      await new Promise((resolve) => late.close(resolve));
    }
  }, 60_000);
});
