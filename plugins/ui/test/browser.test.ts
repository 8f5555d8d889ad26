import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AgentToolResult, type AnyAgentTool, createToolset, type Toolset } from "@clawtools/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { staleRef } from "../src/driver/act-request.js";
import { TRUNCATED_NOTICE } from "../src/driver/limits.js";
import { createUiPlugin } from "../src/plugin.js";
import { DIALOG_WAITING } from "../src/tools/browser-page.js";
import { startPages } from "./pages.js";

// One Chromium for the whole file: launching is the expensive part on two cores.
let pages: Awaited<ReturnType<typeof startPages>>;
let set: Toolset;
let browser: AnyAgentTool;
let workspace: string;
let stateDir: string;

const call = (args: Record<string, unknown>) => browser.execute("t", args) as Promise<AgentToolResult<any>>;
const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
// results with page text are wrapped as external content: the JSON sits between the markers
const json = (r: AgentToolResult<unknown>) => JSON.parse(/\{[\s\S]*\}/.exec(text(r))![0]);
const error = (r: AgentToolResult<unknown>) => (r.isError ? String(json(r).error) : "");
const evaluate = async (targetId: string, fn: string) =>
  json(await call({ action: "act", request: { kind: "evaluate", targetId, fn } })).result;

beforeAll(async () => {
  pages = await startPages();
  workspace = mkdtempSync(path.join(tmpdir(), "ui-ws-"));
  stateDir = mkdtempSync(path.join(tmpdir(), "ui-state-"));
  set = createToolset({
    plugins: [createUiPlugin({ browser: { allowPrivateNetwork: true, actionTimeoutMs: 5_000 } })],
    context: { workspaceDir: workspace, stateDir },
  });
  browser = set.tools.find((t) => t.name === "browser")!;
});

afterAll(async () => {
  await set?.dispose();
  await pages?.close();
});

describe("browser on a real Chromium", () => {
  it("reports status, starts on first use and lists tabs as external content", async () => {
    const before = json(await call({ action: "status" }));
    expect(before).toMatchObject({
      running: false,
      profile: "openclaw",
      driver: "playwright",
      headless: true,
    });
    expect(before.detectedExecutablePath).toMatch(/chrom/);
    const opened = json(await call({ action: "open", targetUrl: pages.url("/form") }));
    expect(opened.targetId).toMatch(/^[0-9A-F]{32}$/);
    expect(opened.title).toBe("Form");
    const tabs = await call({ action: "tabs" });
    expect(text(tabs)).toContain("<<<EXTERNAL_UNTRUSTED_CONTENT");
    expect(text(tabs)).toContain(opened.targetId);
    expect(text(tabs)).not.toContain("SECURITY NOTICE");
    expect(tabs.details).toMatchObject({ ok: true, externalContent: { source: "browser", kind: "tabs" } });
    expect(json(await call({ action: "profiles" })).profiles.map((p: { name: string }) => p.name)).toEqual([
      "openclaw",
      "user",
    ]);
  }, 90_000); // Chromium starts here: over 15 s on a loaded two-core machine

  it("snapshots with role refs, acts by ref, and keeps the targetId across a form submit", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/form") }));
    const snap = await call({ action: "snapshot", targetId });
    const body = text(snap);
    expect(body).toContain("SECURITY NOTICE");
    expect(body).toMatch(/- textbox "Email" \[ref=e\d+\]/);
    expect(snap.details).toMatchObject({ ok: true, format: "ai", targetId, truncated: false });
    const ref = (role: string, name: string) =>
      new RegExp(`- ${role} "${name}" \\[ref=(e\\d+)\\]`).exec(body)![1]!;
    await call({
      action: "act",
      request: { kind: "type", targetId, ref: ref("textbox", "Email"), text: "a@b.c" },
    });
    await call({
      action: "act",
      request: { kind: "select", targetId, ref: ref("combobox", "Plan"), values: ["pro"] },
    });
    // legacy flattened form
    await call({
      action: "act",
      kind: "fill",
      targetId,
      fields: [{ ref: ref("checkbox", "Agree"), type: "checkbox", value: true }],
    });
    await call({ action: "act", request: { kind: "click", targetId, ref: ref("button", "Send") } });
    await call({ action: "act", request: { kind: "wait", targetId, text: "got" } });
    expect(await evaluate(targetId, "document.getElementById('out').textContent")).toBe(
      "got ?email=a%40b.c&plan=pro&agree=on",
    );
    const tabs = json(
      await call({ action: "tabs" }).then((r) => ({
        ...r,
        content: [{ type: "text" as const, text: /\{[\s\S]*\}/.exec(text(r))![0] }],
      })),
    );
    expect(tabs.tabs.find((t: { targetId: string }) => t.targetId === targetId).url).toContain("/done");
    // the old document's refs are stale now: refused at once with advice to re-snapshot
    const stale = await call({
      action: "act",
      request: { kind: "click", targetId, ref: ref("button", "Send") },
    });
    expect(stale.isError).toBe(true);
    expect(error(stale)).toBe(staleRef(ref("button", "Send")));
    const unknown = await call({ action: "act", request: { kind: "click", targetId, ref: "e999" } });
    expect(error(unknown)).toBe(staleRef("e999"));
  });

  it("a ref whose element left the page is stale at once, even with a long action timeout; a button that removes itself clicks", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/form") }));
    await evaluate(
      targetId,
      `() => { const b = document.createElement("button"); b.type = "button"; b.textContent = "Vanish";
        b.onclick = () => { document.title = "vanished"; b.remove(); }; document.body.append(b); }`,
    );
    const body = text(await call({ action: "snapshot", targetId }));
    const ref = (name: string) => new RegExp(`- button "${name}" \\[ref=(e\\d+)\\]`).exec(body)![1]!;
    // the element goes, the snapshot stays the latest: the click must not wait out its 10 minutes
    await evaluate(targetId, "document.querySelector('button[type=submit]').remove()");
    const gone = await call({
      action: "act",
      request: { kind: "click", targetId, ref: ref("Send"), timeoutMs: 600_000 },
    });
    expect(error(gone)).toBe(staleRef(ref("Send")));
    const vanish = await call({ action: "act", request: { kind: "click", targetId, ref: ref("Vanish") } });
    expect(vanish.isError).toBeFalsy();
    expect(await evaluate(targetId, "document.title")).toBe("vanished");
    expect(await evaluate(targetId, "document.querySelectorAll('button').length")).toBe(0);
  });

  it("acts through Playwright's aria refs too", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/form") }));
    const body = text(await call({ action: "snapshot", targetId, refs: "aria" }));
    const email = /textbox "Email" \[ref=(e\d+)\]/.exec(body)![1]!;
    await call({ action: "act", request: { kind: "type", targetId, ref: email, text: "aria" } });
    expect(await evaluate(targetId, "document.querySelector('input[name=email]').value")).toBe("aria");
  });

  it("caps snapshots: maxChars with OpenClaw's notice, efficient mode keeps interactive lines", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/long") }));
    const capped = await call({ action: "snapshot", targetId, maxChars: 500 });
    expect(capped.details.truncated).toBe(true);
    expect(text(capped)).toContain(TRUNCATED_NOTICE.trim());
    const efficient = text(await call({ action: "snapshot", targetId, mode: "efficient" }));
    const lines = efficient.split("\n").filter((l) => l.includes("[ref="));
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => !l.startsWith("- link "))).toEqual([]);
    expect(efficient).not.toMatch(/- (generic|paragraph)/);
    const refused = await call({ action: "snapshot", targetId, snapshotFormat: "aria", labels: true });
    expect(error(refused)).toBe("labels/mode=efficient require format=ai");
    const aria = await call({ action: "snapshot", targetId, snapshotFormat: "aria", limit: 20 });
    expect(aria.details.nodeCount).toBe(20);
  });

  it("scopes snapshots to a selector or an iframe, and acts inside the frame by its refs", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/framed") }));
    const scoped = text(await call({ action: "snapshot", targetId, selector: "#box" }));
    expect(scoped).toContain('button "Inside"');
    expect(scoped).not.toContain('button "Outside"');
    const framed = text(await call({ action: "snapshot", targetId, frame: "#child" }));
    expect(framed).toContain('button "In the frame"');
    expect(framed).not.toContain("Outside");
    const ref = /button "In the frame" \[ref=(e\d+)\]/.exec(framed)![1]!;
    const clicked = await call({
      action: "act",
      request: { kind: "evaluate", targetId, ref, fn: "(el) => el.textContent" },
    });
    expect(json(clicked).result).toBe("In the frame");
  });

  it("shows visible elements inside a visibility:hidden parent (menus, popovers) and acts on them", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/menu") }));
    const body = text(await call({ action: "snapshot", targetId }));
    expect(body).toMatch(
      /- menu \[ref=e\d+\]:\n {2}- menuitem "Open" \[ref=e\d+\]\n {2}- menuitem "Save" \[ref=e\d+\]/,
    );
    expect(body).not.toContain("Closed label");
    const open = /- menuitem "Open" \[ref=(e\d+)\]/.exec(body)![1]!;
    await call({ action: "act", request: { kind: "click", targetId, ref: open } });
    expect(await evaluate(targetId, "document.getElementById('picked').textContent")).toBe("opened");
  });

  it("runs every act kind", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/widgets") }));
    const body = text(await call({ action: "snapshot", targetId }));
    const ref = (role: string, name: string) =>
      new RegExp(`- ${role} "${name}" \\[ref=(e\\d+)\\]`).exec(body)![1]!;
    await call({ action: "act", request: { kind: "hover", targetId, ref: ref("button", "Hover me") } });
    expect(await evaluate(targetId, "document.getElementById('hover').textContent")).toBe("hovered");
    await call({ action: "act", request: { kind: "click", targetId, ref: ref("textbox", "Keys") } });
    await call({ action: "act", request: { kind: "press", targetId, key: "x" } });
    await call({
      action: "act",
      request: { kind: "type", targetId, ref: ref("textbox", "Keys"), text: "yz", slowly: true },
    });
    expect(await evaluate(targetId, "document.getElementById('keys').value")).toBe("xyz");
    await call({
      action: "act",
      request: {
        kind: "drag",
        targetId,
        startRef: ref("button", "Drag source"),
        endRef: ref("button", "Drop target"),
      },
    });
    expect(await evaluate(targetId, "document.getElementById('dst').textContent")).toBe("dropped");
    await call({ action: "act", request: { kind: "wait", targetId, text: "arrived" } });
    await call({ action: "act", request: { kind: "resize", targetId, width: 640, height: 480 } });
    expect(await evaluate(targetId, "() => [innerWidth, innerHeight]")).toEqual([640, 480]);
    expect(
      await call({
        action: "act",
        request: { kind: "evaluate", targetId, ref: ref("textbox", "Keys"), fn: "(el) => el.id" },
      }).then((r) => json(r).result),
    ).toBe("keys");
    const bad = await call({ action: "act", request: { kind: "click", targetId } });
    expect(error(bad)).toBe("click requires ref or selector");
    expect(error(await call({ action: "act", targetId }))).toBe("request required");
    await call({ action: "act", request: { kind: "close", targetId } });
    expect(error(await call({ action: "snapshot", targetId }))).toBe(
      'Chrome tab not found (stale targetId?). Run action=tabs profile="openclaw" and use one of the returned targetIds.',
    );
  });

  it("answers a dialog it was armed for, uploads workspace files, and reads console levels", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/widgets") }));
    await call({ action: "dialog", targetId, accept: true, promptText: "Ada" });
    await call({ action: "act", request: { kind: "click", targetId, selector: "#ask" } });
    await call({ action: "act", request: { kind: "wait", targetId, text: "Ada" } });
    writeFileSync(path.join(workspace, "note.txt"), "hello upload");
    // through a file chooser opened by a button
    await call({ action: "upload", targetId, paths: ["note.txt"], selector: "#pick" });
    await call({ action: "act", request: { kind: "wait", targetId, text: "note.txt:12" } });
    // straight into the file input
    writeFileSync(path.join(workspace, "second.txt"), "2nd");
    await call({ action: "upload", targetId, paths: ["second.txt"], selector: "#file" });
    await call({ action: "act", request: { kind: "wait", targetId, text: "second.txt:3" } });
    const outside = await call({ action: "upload", targetId, paths: ["../../etc/passwd"] });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toContain("Path escapes sandbox root");
    const errors = await call({ action: "console", targetId, level: "error" });
    expect(text(errors)).toContain("error line");
    expect(text(errors)).not.toContain("warn line");
    expect(text(await call({ action: "console", targetId, level: "warn" }))).toContain("warn line");
  });

  it("writes screenshots and PDFs under the state directory", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/long") }));
    const full = await call({ action: "screenshot", targetId, fullPage: true });
    const image = full.content.find((c) => c.type === "image") as { data: string; mimeType: string };
    expect(image.mimeType).toBe("image/png");
    const png = Buffer.from(image.data, "base64");
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.readUInt32BE(20)).toBeGreaterThan(2000); // full page: far taller than the viewport
    const element = await call({ action: "screenshot", targetId, element: "p", type: "jpeg" });
    const jpeg = Buffer.from((element.content[0] as { data: string }).data, "base64");
    expect(jpeg[0]).toBe(0xff);
    expect(jpeg[1]).toBe(0xd8);
    const pdf = await call({ action: "pdf", targetId });
    const file = text(pdf).replace(/^FILE:/, "");
    expect(file.startsWith(workspace)).toBe(false);
    expect(readFileSync(file).subarray(0, 4).toString()).toBe("%PDF");
    const labelled = await call({ action: "snapshot", targetId, labels: true });
    expect(labelled.content.map((c) => c.type)).toEqual(["text", "image"]);
    expect(labelled.details.labelsCount).toBeGreaterThan(0);
    expect(existsSync(labelled.details.imagePath)).toBe(true);
  }, 120_000); // a full-page capture alone takes over 10 s on a loaded two-core machine
});

describe("dialogs, wrapped page text, navigation results and history", () => {
  const out = (targetId: string) => evaluate(targetId, "document.getElementById('out').textContent");

  it("reports an alert in the result of the click that raised it", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/dialogs") }));
    const clicked = await call({ action: "act", request: { kind: "click", targetId, selector: "#alert" } });
    expect(clicked.details.dialogs).toEqual([{ kind: "alert", answer: "accepted" }]);
    expect(json(clicked).dialogs).toEqual([
      { kind: "alert", message: "Saved!", answer: "accepted", by: "auto" },
    ]);
    expect(await out(targetId)).toBe("after alert");
  });

  it("keeps an unarmed confirm open, tells the model, and lets it answer", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/dialogs") }));
    const clicked = await call({ action: "act", request: { kind: "click", targetId, selector: "#confirm" } });
    expect(clicked.details).toMatchObject({
      blockedByDialog: true,
      dialogs: [{ kind: "confirm", pending: true }],
    });
    expect(json(clicked)).toEqual({
      ok: true,
      kind: "click",
      targetId,
      dialogs: [{ kind: "confirm", message: "Delete the file?", pending: true }],
      next: DIALOG_WAITING,
    });
    // nothing else touches the page while it waits
    const blocked = await call({ action: "snapshot", targetId });
    expect(error(blocked)).toContain(
      "A confirm dialog is open on this tab and the page waits for it. Answer it first with action=dialog (accept=true or accept=false; promptText for a prompt). Its text:",
    );
    expect(error(blocked)).toContain("Delete the file?");
    const dismissed = await call({ action: "dialog", targetId, accept: false });
    expect(json(dismissed)).toMatchObject({
      answered: { kind: "confirm", message: "Delete the file?", answer: "dismissed", by: "model" },
      action: { completed: true },
    });
    expect(await out(targetId)).toBe("cancelled");
    await call({ action: "act", request: { kind: "click", targetId, selector: "#confirm" } });
    await call({ action: "dialog", targetId, accept: true });
    expect(await out(targetId)).toBe("confirmed");
  });

  it("answers a prompt with the model's text, and arming ahead still works", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/dialogs") }));
    const asked = await call({ action: "act", request: { kind: "click", targetId, selector: "#prompt" } });
    expect(json(asked).dialogs).toEqual([
      { kind: "prompt", message: "Name?", defaultValue: "anon", pending: true },
    ]);
    const answered = await call({ action: "dialog", targetId, accept: true, promptText: "Grace" });
    expect(json(answered).answered).toEqual({
      kind: "prompt",
      message: "Name?",
      defaultValue: "anon",
      answer: "accepted",
      by: "model",
      promptText: "Grace",
    });
    expect(await out(targetId)).toBe("name=Grace");
    const armed = await call({ action: "dialog", targetId, accept: false });
    expect(json(armed).armed).toEqual({ accept: false });
    const clicked = await call({ action: "act", request: { kind: "click", targetId, selector: "#confirm" } });
    expect(json(clicked).dialogs).toEqual([
      { kind: "confirm", message: "Delete the file?", answer: "dismissed", by: "armed" },
    ]);
    expect(await out(targetId)).toBe("cancelled");
  });

  it("reports a confirm raised while a page loads in the open result, and the load finishes once answered", async () => {
    const opened = await call({ action: "open", targetUrl: pages.url("/confirm-on-load") });
    expect(opened.details).toMatchObject({
      blockedByDialog: true,
      dialogs: [{ kind: "confirm", pending: true }],
    });
    expect(json(opened).dialogs).toEqual([{ kind: "confirm", message: "Stay on this page?", pending: true }]);
    const targetId = opened.details.targetId;
    const answered = await call({ action: "dialog", targetId, accept: true });
    expect(json(answered).action).toEqual({
      completed: true,
      result: { ok: true, targetId, url: pages.url("/confirm-on-load") },
    });
    expect(await evaluate(targetId, "document.title")).toBe("stayed");
  });

  it("wraps titles and evaluate results as external content, keeping them out of details", async () => {
    const opened = await call({ action: "open", targetUrl: pages.url("/form") });
    expect(text(opened)).toMatch(
      /^<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]{16}">>>\nSource: Browser\n---\n\{/,
    );
    expect(json(opened).title).toBe("Form");
    expect(opened.details).not.toHaveProperty("title");
    expect(opened.details.externalContent).toEqual({
      untrusted: true,
      source: "browser",
      kind: "open",
      wrapped: true,
    });
    const evaluated = await call({
      action: "act",
      request: { kind: "evaluate", targetId: opened.details.targetId, fn: "() => 'page says hi'" },
    });
    expect(text(evaluated)).toMatch(/^<<<EXTERNAL_UNTRUSTED_CONTENT/);
    expect(json(evaluated).result).toBe("page says hi");
    expect(JSON.stringify(evaluated.details)).not.toContain("page says hi");
  });

  it("navigate answers with the new page's interactive snapshot; back and forward walk the history", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/menu") }));
    const navigated = await call({ action: "navigate", targetId, targetUrl: pages.url("/form") });
    const body = text(navigated);
    expect(body).toContain("SECURITY NOTICE");
    expect(body).toContain("Page: Form\nURL: ");
    expect(body).toMatch(/- textbox "Email" \[ref=e\d+\]/);
    expect(body).not.toContain("- heading");
    expect(navigated.details).toMatchObject({ ok: true, targetId, format: "ai", interactive: true });
    // its refs are live: act with one straight away
    const email = /- textbox "Email" \[ref=(e\d+)\]/.exec(body)![1]!;
    await call({ action: "act", request: { kind: "type", targetId, ref: email, text: "n@v.x" } });
    expect(await evaluate(targetId, "document.querySelector('input[name=email]').value")).toBe("n@v.x");
    const back = await call({ action: "back", targetId });
    expect(back.details.url).toBe(pages.url("/menu"));
    expect(text(back)).toMatch(/- menuitem "Open" \[ref=e\d+\]/);
    const forward = await call({ action: "forward", targetId });
    expect(forward.details.url).toBe(pages.url("/form"));
    expect(error(await call({ action: "forward", targetId }))).toBe(
      "Cannot go forward: no later page in this tab's history.",
    );
  });

  it("a navigation whose server does not answer in time is stopped: one clear line, and the tab answers at once", async () => {
    const start = pages.url("/to-slow");
    const slow = pages.url("/slow");
    const { targetId } = json(await call({ action: "open", targetUrl: start }));
    const stopped = (what: string) =>
      `${what} did not finish loading within 5000 ms, so loading was stopped (the page stays at ${start}). Try again, or raise browser.actionTimeoutMs in the ui configuration for slow pages.`;
    expect(error(await call({ action: "navigate", targetId, targetUrl: slow }))).toBe(
      stopped(`The page at ${slow}`),
    );
    // the tab is not held by the pending navigation: its page reads and runs scripts
    const link = /- link "Open the slow page" \[ref=(e\d+)\]/.exec(
      text(await call({ action: "snapshot", targetId })),
    )![1]!;
    expect(await evaluate(targetId, "document.title")).toBe("Before slow");
    // a click on a link to the slow page: Playwright's click waits for that navigation too
    const clicked = await call({ action: "act", request: { kind: "click", targetId, ref: link } });
    expect(error(clicked)).toBe(stopped(`The page the click opened (${slow})`));
    expect(await evaluate(targetId, "document.title")).toBe("Before slow");
    // both requests reached the server, and its late answers move nothing: the navigations ended
    expect(pages.answerSlow()).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await evaluate(targetId, "document.title")).toBe("Before slow");
    expect((await call({ action: "snapshot", targetId })).details.url).toBe(start);
  }, 60_000);

  it("a snapshot while a navigation the page started has no answer waits for it; one that never answers is stopped", async () => {
    const start = pages.url("/redirects-late");
    const slow = pages.url("/slow");
    const { targetId } = json(await call({ action: "open", targetUrl: start }));
    const go = /- button "Go later" \[ref=(e\d+)\]/.exec(
      text(await call({ action: "snapshot", targetId })),
    )![1]!;
    // the click returns; the page's script navigates 50 ms later, to a server that holds it
    expect(error(await call({ action: "act", request: { kind: "click", targetId, ref: go } }))).toBe("");
    await vi.waitFor(() => expect(pages.slowHeld()).toBe(1), { timeout: 10_000 });
    expect(error(await call({ action: "snapshot", targetId }))).toBe(
      `The page at ${slow} did not finish loading within 5000 ms, so loading was stopped (the page stays at ${start}). Try again, or raise browser.actionTimeoutMs in the ui configuration for slow pages.`,
    );
    // taken again, the snapshot reads the page as it stands
    const again = await call({ action: "snapshot", targetId });
    expect(error(again)).toBe("");
    expect(again.details.url).toBe(start);
    expect(text(again)).toContain('button "Go later"');
    pages.answerSlow();
  }, 60_000);

  it("a page whose script never yields: each call answers within its bound, and closing the tab frees it", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/to-slow") }));
    const spin = "() => { setTimeout(() => { for (;;) {} }, 0); return 'spinning'; }";
    expect(await evaluate(targetId, spin)).toBe("spinning");
    // a script, a viewport change (a key press too): none of them has a timeout of its own in Playwright
    for (const request of [
      { kind: "evaluate", fn: "() => 1", timeoutMs: 500 },
      { kind: "resize", width: 640, height: 480, timeoutMs: 500 },
    ])
      expect(error(await call({ action: "act", request: { ...request, targetId } }))).toBe(
        `The page did not answer the ${request.kind} within 11 s: a script in it may be busy (a page script that never yields holds every call to its tab). Close the tab (action=close targetId=${targetId}) and open the page again.`,
      );
    // a snapshot: Playwright's own timeout, answered the same way
    expect(error(await call({ action: "snapshot", targetId }))).toBe(
      `The page did not answer the snapshot within 5 s: a script in it may be busy (a page script that never yields holds every call to its tab). Close the tab (action=close targetId=${targetId}) and open the page again.`,
    );
    // the listing does not wait on it: the busy tab is listed without its title
    const listed = json(await call({ action: "tabs" })).tabs.find(
      (t: { targetId: string }) => t.targetId === targetId,
    );
    expect(listed).toMatchObject({ targetId, title: "", url: pages.url("/to-slow") });
    expect(error(await call({ action: "close", targetId }))).toBe("");
    const fresh = json(await call({ action: "open", targetUrl: pages.url("/to-slow") }));
    expect(await evaluate(fresh.targetId, "document.title")).toBe("Before slow");
  }, 90_000);

  it("words an action's Playwright failure as OpenClaw does: several matches, an element it cannot reach", async () => {
    const shop = json(await call({ action: "open", targetUrl: pages.url("/shop") })).targetId;
    const several = await call({
      action: "act",
      request: { kind: "click", targetId: shop, selector: "button" },
    });
    expect(error(several)).toBe(
      'Selector "button" matched 2 elements. Run a new snapshot to get updated refs, or use a different ref.',
    );
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/covered") }));
    const ref = /- button "Under the overlay" \[ref=(e\d+)\]/.exec(
      text(await call({ action: "snapshot", targetId })),
    )![1]!;
    const covered = await call({ action: "act", request: { kind: "click", targetId, ref } });
    expect(error(covered)).toBe(
      `Element "${ref}" not found or not visible. Run a new snapshot to see current page elements.`,
    );
    expect(await evaluate(targetId, "document.title")).toBe("Covered");
  }, 60_000);
});

describe("page text in snapshots", () => {
  const WORDS = [
    "Article text in a div.",
    "Price: 42 EUR",
    "para",
    "Ships in 3 days",
    "from Lyon",
    "7 left",
    "Free returns",
    "2-year warranty",
    "No results yet",
  ];

  it("every format carries the text of divs, spans, sections, tables and list items", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/shop") }));
    const formats: Array<[string, Record<string, unknown>]> = [
      ["ai (default)", {}],
      ["ai compact", { compact: true }],
      ["ai, aria refs", { refs: "aria" }],
      ["ai, aria refs, compact", { refs: "aria", compact: true }],
      ["aria", { snapshotFormat: "aria" }],
    ];
    for (const [label, options] of formats) {
      const body = text(await call({ action: "snapshot", targetId, ...options }));
      for (const words of WORDS) expect(body, `${label}: ${words}`).toContain(words);
      expect(body, label).toContain(options.snapshotFormat ? '"name": "Go"' : '- button "Go" [ref=');
    }
    // the default: the text sits where the page has it, as text lines between the elements
    const body = text(await call({ action: "snapshot", targetId }));
    expect(body).toMatch(
      /- text: Article text in a div\.\n\s*- text: "Price: 42 EUR"\n\s*- paragraph \[ref=e\d+\]: para\n\s*- button "Go" \[ref=e\d+\]/,
    );
    expect(body).toMatch(/- cell "7 left" \[ref=e\d+\]/);
  });

  it("navigate's element list and snapshot give an element the same ref; a click's new text shows in the next snapshot", async () => {
    const { targetId } = json(await call({ action: "open", targetUrl: pages.url("/form") }));
    const landed = text(await call({ action: "navigate", targetId, targetUrl: pages.url("/shop") }));
    const listed = (body: string, name: string) =>
      new RegExp(`- button "${name}" \\[ref=(e\\d+)\\]`).exec(body)?.[1];
    const search = listed(landed, "Search");
    const go = listed(landed, "Go");
    expect(search).toBeDefined();
    const before = text(await call({ action: "snapshot", targetId }));
    expect(listed(before, "Search")).toBe(search);
    expect(listed(before, "Go")).toBe(go);
    expect(before).toContain("No results yet");
    // the ref from navigate's list still acts after the full snapshot
    await call({ action: "act", request: { kind: "click", targetId, ref: search } });
    const after = text(await call({ action: "snapshot", targetId }));
    expect(after).toContain("3 results for shoes");
    expect(after).not.toContain("No results yet");
    expect(listed(after, "Search")).toBe(search);
    const efficient = text(await call({ action: "snapshot", targetId, mode: "efficient" }));
    expect(listed(efficient, "Search")).toBe(search);
  });
});

describe("browser URL policy", () => {
  it("refuses loopback and private targets by default, before any browser starts", async () => {
    const strict = createToolset({
      plugins: [createUiPlugin()],
      context: { workspaceDir: workspace, stateDir: mkdtempSync(path.join(tmpdir(), "ui-state-")) },
    });
    const tool = strict.tools.find((t) => t.name === "browser")!;
    const refused = await tool.execute("t", { action: "open", targetUrl: pages.url("/form") });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("Navigation to 127.0.0.1");
    expect(text(refused)).toContain("Blocked hostname or private/internal/special-use IP address");
    const file = await tool.execute("t", { action: "open", targetUrl: "file:///etc/passwd" });
    expect(text(file)).toContain("Only http and https URLs can be opened");
    expect(JSON.parse(text(await tool.execute("t", { action: "status" }))).running).toBe(false);
    await strict.dispose();
  });
});

// last: it stops the browser
describe("staged uploads", () => {
  it("removes staged uploads when their page closes and when the browser stops", async () => {
    const staged = () => {
      const dir = path.join(stateDir, "browser", "uploads");
      return existsSync(dir) ? readdirSync(dir) : [];
    };
    writeFileSync(path.join(workspace, "up.txt"), "staged");
    const before = staged().length;
    const closing = json(await call({ action: "open", targetUrl: pages.url("/widgets") })).targetId;
    await call({ action: "upload", targetId: closing, paths: ["up.txt"], selector: "#file" });
    expect(staged().length).toBe(before + 1);
    await call({ action: "close", targetId: closing });
    expect(staged().length).toBe(before);
    // closed by act kind close
    const acting = json(await call({ action: "open", targetUrl: pages.url("/widgets") })).targetId;
    await call({ action: "upload", targetId: acting, paths: ["up.txt"] });
    expect(staged().length).toBe(before + 1);
    await call({ action: "act", request: { kind: "close", targetId: acting } });
    expect(staged().length).toBe(before);
    // the browser (the server's) stops with pages still open
    const open = json(await call({ action: "open", targetUrl: pages.url("/widgets") })).targetId;
    await call({ action: "upload", targetId: open, paths: ["up.txt"], selector: "#file" });
    await call({ action: "act", request: { kind: "wait", targetId: open, text: "up.txt:6" } });
    expect(staged().length).toBeGreaterThan(0);
    await call({ action: "stop" });
    expect(staged()).toEqual([]);
  });
});
