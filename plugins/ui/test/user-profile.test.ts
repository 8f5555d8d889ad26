import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../src/browser/chromium-path.js";
import { CHROMIUM_ARGS } from "../src/browser/runtime.js";
import { createUiPlugin } from "../src/plugin.js";
import { startPages } from "./pages.js";

// profile "user": attach over CDP to a Chromium someone else started (here: this test).
let chromium: ChildProcess;
let cdpUrl: string;
let pages: Awaited<ReturnType<typeof startPages>>;

beforeAll(async () => {
  pages = await startPages();
  const profile = mkdtempSync(path.join(tmpdir(), "ui-user-"));
  chromium = spawn(
    findChromium(),
    [
      "--headless=new",
      ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
      ...CHROMIUM_ARGS,
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: "ignore" },
  );
  // Chromium writes the port it picked to DevToolsActivePort in the profile
  const portFile = path.join(profile, "DevToolsActivePort");
  const port = () => (existsSync(portFile) ? /^\d+/.exec(readFileSync(portFile, "utf8"))?.[0] : undefined);
  // up to 60 s: Chromium's start takes seconds, more on a loaded CI machine
  for (let i = 0; i < 1200 && !port(); i++) await new Promise((r) => setTimeout(r, 50));
  cdpUrl = `http://127.0.0.1:${port()}`;
}, 90_000);

afterAll(async () => {
  chromium?.kill();
  await pages?.close();
});

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe('profile "user"', () => {
  it("needs a CDP URL, then drives the user's own browser and leaves it running on stop", async () => {
    const without = createToolset({
      plugins: [createUiPlugin()],
      context: { workspaceDir: tmpdir(), stateDir: mkdtempSync(path.join(tmpdir(), "ui-s-")) },
    });
    const refused = await without.tools
      .find((t) => t.name === "browser")!
      .execute("t", { action: "start", profile: "user" });
    expect(JSON.parse(text(refused)).error).toContain(
      'profile "user" attaches to a Chromium you started with --remote-debugging-port',
    );

    const set = createToolset({
      plugins: [createUiPlugin({ browser: { cdpUrl, allowPrivateNetwork: true } })],
      context: { workspaceDir: tmpdir(), stateDir: mkdtempSync(path.join(tmpdir(), "ui-s-")) },
    });
    const browser = set.tools.find((t) => t.name === "browser")!;
    const openResult = await browser.execute("t", {
      action: "open",
      profile: "user",
      targetUrl: pages.url("/form"),
    });
    // the open result is wrapped as external content: the JSON sits between the markers
    const opened = JSON.parse(/\{[\s\S]*\}/.exec(text(openResult))![0]);
    expect(opened.title, text(openResult)).toBe("Form");
    expect(JSON.parse(text(await browser.execute("t", { action: "status", profile: "user" })))).toMatchObject(
      {
        running: true,
        attachOnly: true,
        cdpUrl,
      },
    );
    const tabs = text(await browser.execute("t", { action: "tabs", profile: "user" }));
    expect(tabs).toContain(opened.targetId);
    await set.dispose();
    // detaching is not closing: the user's browser is still there
    expect(chromium.exitCode).toBeNull();
    const res = await fetch(`${cdpUrl}/json/version`);
    expect(res.ok).toBe(true);
  });
});

describe("finding Chromium", () => {
  it("takes the configured path, refuses a wrong one, and names the Debian package when there is none", async () => {
    const { NO_CHROMIUM } = await import("../src/browser/chromium-path.js");
    expect(() => findChromium("/nonexistent/chromium")).toThrow(
      `Chromium not executable at /nonexistent/chromium. ${NO_CHROMIUM}`,
    );
    expect(() => findChromium(undefined, { CHROMIUM_PATH: "/nonexistent/c" })).toThrow(
      "Chromium not executable at /nonexistent/c",
    );
    expect(NO_CHROMIUM).toContain("apt-get install chromium");
    expect(findChromium(undefined, {})).toMatch(/chrom/);
  });

  it.runIf(existsSync("/usr/lib/chromium/chromium"))(
    "starts Debian's Chromium binary itself, not the shell launcher in front of it",
    async () => {
      expect(readFileSync("/usr/bin/chromium", "utf8").startsWith("#!/bin/sh")).toBe(true);
      expect(findChromium(undefined, {})).toBe("/usr/lib/chromium/chromium");
      // the same Chromium the launcher starts (the launcher adds "built on Debian …")
      const version = (file: string) =>
        new Promise<string>((resolve) => {
          const child = spawn(file, ["--version"]);
          let out = "";
          child.stdout.on("data", (d) => {
            out += d;
          });
          child.on("close", () => resolve(/^Chromium [\d.]+/.exec(out)?.[0] ?? out));
        });
      expect(await version("/usr/lib/chromium/chromium")).toBe(await version("/usr/bin/chromium"));
    },
  );
});
