import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BROWSER_CONFORMANCE_SITE,
  browserConformanceHtml,
  browserDriverConformance,
} from "@clawtools/testing";
import { afterAll, beforeAll } from "vitest";
import { browserPolicy, PlaywrightBrowserDriver } from "../src/index.js";
import { ScriptedDriver } from "./scripted-driver.js";

// one Chromium for the file (Debian's, found by the driver), pages from a loopback server
const server = createServer((req, res) => {
  const page = BROWSER_CONFORMANCE_SITE[req.url as keyof typeof BROWSER_CONFORMANCE_SITE];
  if (!page) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(browserConformanceHtml(page));
});
let baseUrl = "";
let playwright: PlaywrightBrowserDriver | undefined;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await playwright?.dispose();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const stateDir = () => mkdtempSync(path.join(tmpdir(), "ui-conformance-"));

browserDriverConformance(
  () => {
    if (!playwright) {
      const config = { allowPrivateNetwork: true, actionTimeoutMs: 5_000 };
      playwright = new PlaywrightBrowserDriver({
        config,
        stateDir: stateDir(),
        policy: browserPolicy(config),
      });
    }
    return { driver: playwright, baseUrl };
  },
  { name: "PlaywrightBrowserDriver conformance" },
);

// the scripted driver serves the same site at a made-up origin
const SCRIPTED_BASE = "https://shop.example";
browserDriverConformance(
  () => {
    const site = Object.fromEntries(
      Object.entries(BROWSER_CONFORMANCE_SITE).map(([p, page]) => [`${SCRIPTED_BASE}${p}`, page]),
    );
    const config = {};
    const driver = new ScriptedDriver({ config, stateDir: stateDir(), policy: browserPolicy(config) }, site);
    return { driver, baseUrl: SCRIPTED_BASE };
  },
  { name: "ScriptedDriver conformance" },
);
