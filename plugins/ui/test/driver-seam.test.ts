import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, type AnyAgentTool, createToolset } from "@clawtools/core";
import type { Lookup } from "@clawtools/core/safety";
import { describe, expect, it } from "vitest";
import { staleRef } from "../src/driver/act-request.js";
import { createUiPlugin, type UiPluginOptions } from "../src/plugin.js";
import { DIALOG_WAITING } from "../src/tools/browser-page.js";
import { ScriptedDriver, type ScriptedPage } from "./scripted-driver.js";

// The browser tool over a driver written here (no Playwright, no Chromium): the seam carries
// snapshots, action results and dialogs as plain values, and the section's own rules (URL
// policy, evaluateEnabled, act validation, upload containment) hold whatever the driver.

const SITE: Record<string, ScriptedPage> = {
  "https://shop.example/": {
    title: "Shop",
    buttons: [{ name: "Buy" }, { name: "Delete", confirm: "Delete the basket?" }],
  },
};
// shop.example is a public address; anything else a name the test does not know
const lookup: Lookup = async (host) => {
  if (host === "shop.example") return [{ address: "93.184.215.14", family: 4 }];
  throw new Error(`no such test name: ${host}`);
};

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const json = (r: AgentToolResult<unknown>) => JSON.parse(/\{[\s\S]*\}/.exec(text(r))![0]);
const error = (r: AgentToolResult<unknown>) => (r.isError ? String(json(r).error) : "");

function scripted(options: Omit<UiPluginOptions, "driver" | "lookup"> = {}) {
  const workspace = mkdtempSync(path.join(tmpdir(), "ui-seam-ws-"));
  const stateDir = mkdtempSync(path.join(tmpdir(), "ui-seam-state-"));
  const made: ScriptedDriver[] = [];
  const set = createToolset({
    plugins: [
      createUiPlugin({
        ...options,
        lookup,
        driver: (init) => {
          const driver = new ScriptedDriver(init, SITE);
          made.push(driver);
          return driver;
        },
      }),
    ],
    context: { workspaceDir: workspace, stateDir },
    policy: { profile: "full" },
  });
  const tool = set.tools.find((t) => t.name === "browser") as AnyAgentTool;
  const call = (args: Record<string, unknown>) => tool.execute("t", args) as Promise<AgentToolResult<any>>;
  return { set, call, made, workspace, stateDir, driver: () => made[0]! };
}

describe("the browser tool over a scripted driver", () => {
  it("opens, snapshots, clicks by ref, leaves a confirm to the model and screenshots, all through the seam", async () => {
    const { set, call, driver, stateDir } = scripted();
    const opened = await call({ action: "open", targetUrl: "https://shop.example/" });
    expect(json(opened)).toEqual({ ok: true, targetId: "T1", url: "https://shop.example/", title: "Shop" });
    expect(text(opened)).toContain("<<<EXTERNAL_UNTRUSTED_CONTENT");
    expect(opened.details).toMatchObject({ ok: true, targetId: "T1", externalContent: { kind: "open" } });
    expect(driver().init).toMatchObject({ stateDir, policy: {}, config: {} });

    const snap = await call({ action: "snapshot", targetId: "T1" });
    expect(text(snap)).toContain('- button "Buy" [ref=e1]');
    expect(text(snap)).toContain("SECURITY NOTICE");
    expect(snap.details).toMatchObject({ format: "ai", targetId: "T1", refs: 2, truncated: false });

    const bought = await call({ action: "act", request: { kind: "click", targetId: "T1", ref: "e1" } });
    expect(json(bought)).toMatchObject({ ok: true, kind: "click", clicks: ["Buy"] });
    expect(bought.details).toMatchObject({ kind: "click", targetId: "T1" });

    const blocked = await call({ action: "act", request: { kind: "click", targetId: "T1", ref: "e2" } });
    expect(blocked.details).toMatchObject({
      blockedByDialog: true,
      dialogs: [{ kind: "confirm", pending: true }],
    });
    expect(json(blocked)).toMatchObject({
      dialogs: [{ kind: "confirm", message: "Delete the basket?", pending: true }],
      next: DIALOG_WAITING,
    });
    // the page text of the dialog is in the wrapped text, never in details
    expect(JSON.stringify(blocked.details)).not.toContain("basket");
    expect(error(await call({ action: "snapshot", targetId: "T1" }))).toContain("confirm dialog is open");

    const answered = json(await call({ action: "dialog", targetId: "T1", accept: false }));
    expect(answered.answered).toMatchObject({ kind: "confirm", answer: "dismissed", by: "model" });
    expect(answered.action).toMatchObject({
      completed: true,
      result: { clicks: ["Buy", "Delete (cancelled)"] },
    });

    expect(error(await call({ action: "act", request: { kind: "click", targetId: "T1", ref: "e9" } }))).toBe(
      staleRef("e9"),
    );

    const shot = await call({ action: "screenshot", targetId: "T1" });
    const image = shot.content.find((c) => c.type === "image") as { data: string };
    expect(Buffer.from(image.data, "base64").toString()).toBe("shot of https://shop.example/");
    expect(shot.details.path.startsWith(path.join(stateDir, "browser", "media"))).toBe(true);
    expect(readFileSync(shot.details.path, "utf8")).toBe("shot of https://shop.example/");
    await set.dispose();
    expect(driver().disposed).toBeGreaterThan(0);
  });

  it("applies the URL policy, act validation and evaluateEnabled before any driver call", async () => {
    const { set, call, driver } = scripted({ browser: { evaluateEnabled: false } });
    await call({ action: "open", targetUrl: "https://shop.example/" });
    const before = [...driver().calls];
    expect(error(await call({ action: "open", targetUrl: "http://127.0.0.1:9/" }))).toContain("blocked");
    expect(error(await call({ action: "navigate", targetUrl: "file:///etc/passwd" }))).toContain(
      "Only http and https",
    );
    expect(error(await call({ action: "act", request: { kind: "click" } }))).toBe(
      "click requires ref or selector",
    );
    expect(error(await call({ action: "act", request: { kind: "evaluate", fn: "() => 1" } }))).toContain(
      "evaluate is disabled",
    );
    expect(error(await call({ action: "act", request: { kind: "wait", fn: "() => true" } }))).toContain(
      "evaluate is disabled",
    );
    expect(driver().calls).toEqual(before);
    await set.dispose();
  });

  it("hands the driver staged copies of workspace files, never a path out of the workspace", async () => {
    const { set, call, driver, workspace, stateDir } = scripted();
    await call({ action: "open", targetUrl: "https://shop.example/" });
    writeFileSync(path.join(workspace, "cv.txt"), "my cv");
    symlinkSync("/etc/hostname", path.join(workspace, "out.txt"));
    expect((await call({ action: "upload", paths: ["out.txt"] })).isError).toBe(true);
    expect((await call({ action: "upload", paths: ["../../etc/hostname"] })).isError).toBe(true);
    expect(driver().uploads).toEqual([]);
    expect(json(await call({ action: "upload", paths: ["cv.txt"] }))).toMatchObject({ ok: true, files: 1 });
    const [upload] = driver().uploads;
    expect(upload!.dir.startsWith(path.join(stateDir, "browser", "uploads"))).toBe(true);
    expect(upload!.files).toHaveLength(1);
    expect(upload!.files[0]!.startsWith(upload!.dir)).toBe(true);
    expect(readFileSync(upload!.files[0]!, "utf8")).toBe("my cv");
    await set.dispose();
  });

  it("leaves the canvas out for a driver without one, and takes one driver instance for every toolset", async () => {
    const { set } = scripted();
    expect(set.tools.map((t) => t.name)).toEqual(["browser"]);
    await set.dispose();

    const stateDir = mkdtempSync(path.join(tmpdir(), "ui-seam-shared-"));
    const shared = new ScriptedDriver({ config: {}, stateDir, policy: {} }, SITE);
    const plugin = createUiPlugin({ driver: shared, lookup });
    const sets = [1, 2].map(() =>
      createToolset({ plugins: [plugin], context: { stateDir }, policy: { profile: "full" } }),
    );
    for (const s of sets) {
      const tool = s.tools.find((t) => t.name === "browser") as AnyAgentTool;
      await tool.execute("t", { action: "open", targetUrl: "https://shop.example/" });
    }
    expect(shared.calls).toEqual(["open https://shop.example/", "open https://shop.example/"]);
    await Promise.all(sets.map((s) => s.dispose()));
    expect(shared.disposed).toBeGreaterThan(0);
    expect(() => createUiPlugin({ driver: {} as never })).toThrow(/driver must be a BrowserDriver/);
  });
});
