import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentToolResult, AnyAgentTool } from "@clawtools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlaywrightBrowserDriver } from "../src/browser/host.js";
import type { BrowserRuntime } from "../src/browser/runtime.js";
import { ChromiumCanvasHost } from "../src/canvas/host.js";
import { createBrowserTool } from "../src/tools/browser.js";
import { createCanvasTool } from "../src/tools/canvas.js";
import { browserPolicy } from "../src/url-check.js";
import { startAttackPages, startPrivateListener, testLookup } from "./egress-servers.js";

// One Chromium for the file. public.test is the allowed origin (an allowed hostname the test
// resolver maps to loopback); 127.0.0.1:<priv>, localhost and rebind.test must stay unreachable.
let priv: Awaited<ReturnType<typeof startPrivateListener>>;
let site: Awaited<ReturnType<typeof startAttackPages>>;
let host: PlaywrightBrowserDriver;
let runtime: BrowserRuntime;
let browser: AnyAgentTool;
let canvas: AnyAgentTool;
const lookup = testLookup();

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
// the tools run bare here (no toolset pipeline): a throw becomes the error result a model would see
const asResult = (run: Promise<AgentToolResult<unknown>>) =>
  run.catch((error: Error) => ({
    content: [{ type: "text" as const, text: JSON.stringify({ error: error.message }) }],
    details: {},
    isError: true,
  })) as Promise<AgentToolResult<any>>;
const call = (args: Record<string, unknown>) => asResult(browser.execute("t", args as never));
const callCanvas = (args: Record<string, unknown>) => asResult(canvas.execute("t", args as never));
const errorOf = (r: AgentToolResult<unknown>) => (r.isError ? String(JSON.parse(text(r)).error) : "");
const privateRefusal = () => `127.0.0.1:${priv.port}`;

/** Opens an attack page and waits until its title says the attack ran. */
async function attack(page: string, title: RegExp): Promise<string> {
  const opened = await call({ action: "open", targetUrl: site.url(page) });
  expect(opened.isError ?? false).toBe(false);
  const tab = await runtime.tab(opened.details.targetId);
  await expect.poll(() => tab.page.title(), { timeout: 10_000 }).toMatch(title);
  return opened.details.targetId;
}

beforeAll(async () => {
  priv = await startPrivateListener();
  site = await startAttackPages(priv);
  const stateDir = mkdtempSync(path.join(tmpdir(), "ui-egress-"));
  const config = { allowedHostnames: ["public.test"], actionTimeoutMs: 5_000 };
  host = new PlaywrightBrowserDriver({ config, stateDir, policy: browserPolicy(config), lookup });
  runtime = host.runtime();
  browser = createBrowserTool({ stateDir }, { driver: host, config, stateDir, lookup }) as AnyAgentTool;
  canvas = createCanvasTool(
    { stateDir },
    { host: new ChromiumCanvasHost(runtime, { width: 400, height: 300 }) },
  ) as AnyAgentTool;
});

afterAll(async () => {
  await host?.dispose();
  await site?.close();
  await priv?.close();
});

describe("the browser's URL policy on every connection (egress proxy)", () => {
  // the first call starts Chromium: seconds, more on a loaded CI machine
  it("loads the allowed origin through the proxy", async () => {
    const opened = await call({ action: "open", targetUrl: site.url("/") });
    expect(opened.isError ?? false).toBe(false);
    expect(text(opened)).toContain("Allowed");
  }, 90_000);

  it("lets a WebSocket to the allowed origin through its tunnel", async () => {
    await attack("/ws-allowed", /ws open/);
  });

  it("refuses a 302 from the allowed page to loopback, naming the policy", async () => {
    const before = runtime.refusedCount;
    const redirected = await call({
      action: "open",
      targetUrl: site.url(`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${priv.port}/x`)}`),
    });
    expect(errorOf(redirected)).toBe(
      `Navigation failed: Blocked by the browser's URL policy: 127.0.0.1:${priv.port}: Blocked hostname or private/internal/special-use IP address`,
    );
    expect(runtime.refusedCount).toBeGreaterThan(before);
    expect(priv.connections).toBe(0);
  });

  it("refuses img and fetch through redirects, https, localhost and mapped addresses", async () => {
    await attack("/img", /img failed/);
    await attack("/fetch", /fetch done/);
    expect(runtime.refused()).toContain(
      `Blocked by the browser's URL policy: localhost:${priv.port}: Blocked hostname or private/internal/special-use IP address`,
    );
    expect(priv.connections).toBe(0);
  });

  it("refuses WebSockets from the page, from act evaluate and from canvas eval", async () => {
    const targetId = await attack("/ws", /ws failed/);
    const before = runtime.refusedCount;
    const evaluated = await call({
      action: "act",
      request: {
        kind: "evaluate",
        targetId,
        fn: `() => new Promise((done) => { const s = new WebSocket("ws://127.0.0.1:${priv.port}/e"); s.onerror = () => done("refused"); s.onopen = () => done("open"); })`,
      },
    });
    expect(text(evaluated)).toContain('"refused"');
    const canvasEval = await callCanvas({
      action: "eval",
      javaScript: `new Promise((done) => { const s = new WebSocket("ws://127.0.0.1:${priv.port}/c"); s.onerror = () => done("refused"); s.onopen = () => done("open"); })`,
    });
    expect(text(canvasEval)).toContain("refused");
    expect(runtime.refusedCount).toBeGreaterThanOrEqual(before + 2);
    expect(priv.connections).toBe(0);
  });

  it("refuses a SharedWorker's fetch, iframes, meta refresh and preconnect", async () => {
    await attack("/shared", /worker done/);
    await attack("/iframe", /iframe loaded/);
    const before = runtime.refusedCount;
    const meta = await call({ action: "open", targetUrl: site.url("/meta") });
    await expect.poll(() => runtime.refusedCount, { timeout: 10_000 }).toBeGreaterThan(before);
    const metaTab = await runtime.tab(meta.details.targetId);
    // the refusal is counted as the request goes out; the tab's URL changes when the browser commits it
    await expect.poll(() => metaTab.page.url(), { timeout: 10_000 }).toContain(`127.0.0.1:${priv.port}/meta`);
    const beforePrefetch = runtime.refusedCount;
    await attack("/preconnect", /preconnect done/);
    // the prefetch on the same page proves its links were followed (and refused)
    await expect.poll(() => runtime.refusedCount, { timeout: 10_000 }).toBeGreaterThan(beforePrefetch);
    expect(priv.connections).toBe(0);
  });

  it("sends no WebRTC UDP around the proxy", async () => {
    await attack("/webrtc", /gathered/);
    expect(priv.datagrams).toBe(0);
  });

  it("checks the resolved address of each connection: DNS rebinding after the first check fails", async () => {
    const rebound = await call({ action: "open", targetUrl: `http://rebind.test:${priv.port}/` });
    expect(lookup.rebindCalls).toBeGreaterThanOrEqual(2);
    expect(errorOf(rebound)).toBe(
      `Navigation failed: Blocked by the browser's URL policy: rebind.test:${priv.port}: Blocked: resolves to private/internal/special-use IP address`,
    );
    expect(priv.connections).toBe(0);
  });

  it("refuses the canvas's navigation through a redirect", async () => {
    const redirected = await callCanvas({
      action: "navigate",
      url: site.url(`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${priv.port}/canvas`)}`),
    });
    expect(errorOf(redirected)).toContain(
      `Navigation failed: Blocked by the browser's URL policy: ${privateRefusal()}`,
    );
    expect(priv.connections).toBe(0);
  });
});
