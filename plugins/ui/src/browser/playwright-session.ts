/// <reference lib="dom" />
// page functions handed to Playwright run in the browser, so this file sees the DOM types
import { rm } from "node:fs/promises";
import { ToolInputError } from "@clawtools/core";
import type { ActRequest } from "../driver/act-request.js";
import type {
  ActionResult,
  AriaValue,
  BrowserSession,
  BrowserStatus,
  Capture,
  ConsoleEntry,
  DialogAnswer,
  PageLoad,
  ScreenshotRequest,
  SnapshotRequest,
  SnapshotValue,
  TabInfo,
  UploadRequest,
} from "../driver/types.js";
import { locate, runAct } from "./act.js";
import { actError } from "./act-errors.js";
import { actDeadlineMs, pageAnswer, SLACK_MS, titleOf } from "./page-answer.js";
import { labelledScreenshot } from "./labels.js";
import type { BrowserRuntime } from "./runtime.js";
import { isPlaywrightTimeout, navigateWithin, stopNavigation } from "./navigation-timeout.js";
import { takeAriaNodes, takeSnapshot } from "./snapshot.js";
import type { Tab } from "./tab.js";
import { loaded, result } from "./tab-outcome.js";

// a capture is not waiting for an element: a busy machine gets longer than an action
const CAPTURE_TIMEOUT_MS = 30_000;

/** One profile's Chromium seen through the driver contract: Playwright stays on this side. */
export class PlaywrightSession implements BrowserSession {
  constructor(
    readonly runtime: BrowserRuntime,
    private readonly evaluateEnabled: boolean,
  ) {}

  async status(): Promise<BrowserStatus> {
    return this.runtime.status() as BrowserStatus;
  }

  async start(): Promise<void> {
    await this.runtime.start();
  }

  stop(): Promise<void> {
    return this.runtime.stop();
  }

  tabs(): Promise<TabInfo[]> {
    return this.runtime.listTabs();
  }

  async page(targetId?: string): Promise<TabInfo> {
    const tab = await this.runtime.tab(targetId);
    const title = await titleOf(tab.page);
    return { targetId: tab.targetId, title, url: tab.page.url(), type: "page" };
  }

  async open(url: string): Promise<ActionResult<PageLoad>> {
    const tab = await this.runtime.newTab();
    return result(tab, await tab.dialogs.guard(() => loaded(tab, this.runtime.goto(tab.page, url))));
  }

  focus(targetId: string): Promise<void> {
    return this.runtime.focus(targetId);
  }

  close(targetId?: string): Promise<void> {
    return this.runtime.close(targetId);
  }

  async navigate(targetId: string | undefined, url: string): Promise<ActionResult<PageLoad>> {
    const tab = await this.runtime.tab(targetId);
    return result(tab, await tab.dialogs.guard(() => loaded(tab, this.runtime.goto(tab.page, url))));
  }

  async history(
    targetId: string | undefined,
    direction: "back" | "forward",
  ): Promise<ActionResult<PageLoad>> {
    const tab = await this.runtime.tab(targetId);
    tab.dialogs.assertFree();
    const ms = 2 * this.runtime.actionTimeoutMs + SLACK_MS;
    return pageAnswer(this.step(tab, direction), ms, `going ${direction}`, tab.targetId);
  }

  private async step(tab: Tab, direction: "back" | "forward"): Promise<ActionResult<PageLoad>> {
    const session = await tab.page.context().newCDPSession(tab.page);
    let history: { currentIndex: number; entries: unknown[] };
    try {
      history = (await session.send("Page.getNavigationHistory")) as typeof history;
    } finally {
      await session.detach().catch(() => {});
    }
    const possible =
      direction === "back" ? history.currentIndex > 0 : history.currentIndex < history.entries.length - 1;
    if (!possible)
      throw new ToolInputError(
        `Cannot go ${direction}: no ${direction === "back" ? "earlier" : "later"} page in this tab's history.`,
      );
    const step = () =>
      navigateWithin(
        tab.page,
        this.runtime.actionTimeoutMs,
        `The ${direction === "back" ? "previous" : "next"} page`,
        () =>
          direction === "back"
            ? tab.page.goBack({ waitUntil: "domcontentloaded" })
            : tab.page.goForward({ waitUntil: "domcontentloaded" }),
      );
    return result(tab, await tab.dialogs.guard(() => loaded(tab, step())));
  }

  async snapshot(targetId: string | undefined, request: SnapshotRequest): Promise<SnapshotValue> {
    const tab = await this.free(targetId);
    const ms = this.runtime.actionTimeoutMs + (request.labels ? CAPTURE_TIMEOUT_MS : 0) + SLACK_MS;
    const own = this.runtime.actionTimeoutMs;
    return pageAnswer(this.snapshotOf(tab, request), ms, "the snapshot", tab.targetId, own);
  }

  private async snapshotOf(tab: Tab, request: SnapshotRequest): Promise<SnapshotValue> {
    const { labels, ...options } = request;
    const snap = await takeSnapshot(tab.page, { ...options, boxes: labels !== undefined });
    tab.refs = snap.refs;
    const value: SnapshotValue = {
      targetId: tab.targetId,
      url: tab.page.url(),
      text: snap.text,
      truncated: snap.truncated,
      lines: snap.lines,
      refCount: snap.refCount,
    };
    if (!labels) return value;
    const shot = await labelledScreenshot(tab.page, snap.boxes, labels.type);
    return { ...value, labels: { image: shot.buffer, count: shot.count, skipped: shot.skipped } };
  }

  async aria(targetId: string | undefined, limit: number): Promise<AriaValue> {
    const tab = await this.free(targetId);
    const ms = this.runtime.actionTimeoutMs + SLACK_MS;
    const nodes = await pageAnswer(takeAriaNodes(tab.page, limit), ms, "the snapshot", tab.targetId);
    return { targetId: tab.targetId, url: tab.page.url(), nodes };
  }

  async act(
    targetId: string | undefined,
    request: ActRequest,
  ): Promise<ActionResult<Record<string, unknown>>> {
    const tab = await this.runtime.tab(targetId);
    const deadline = actDeadlineMs(request, this.runtime.actionTimeoutMs);
    const acting = tab.dialogs.guard(() =>
      runAct(tab, request, { evaluateEnabled: this.evaluateEnabled }).catch(async (error: unknown) => {
        // the action started a navigation whose server has not answered: Playwright's click
        // waits for it to commit, and so would everything after it in this tab
        const pending = tab.pendingNavigation;
        if (!isPlaywrightTimeout(error) || pending === undefined || tab.page.isClosed())
          throw actError(error, elementOf(request));
        throw await stopNavigation(
          tab.page,
          this.runtime.actionTimeoutMs,
          `The page the ${request.kind} opened (${pending})`,
        );
      }),
    );
    const outcome = await pageAnswer(acting, deadline, `the ${request.kind ?? "action"}`, tab.targetId);
    await tab.cleanup(); // act kind close: its staged uploads go with it
    return result(tab, outcome);
  }

  async screenshot(targetId: string | undefined, request: ScreenshotRequest): Promise<Capture> {
    const tab = await this.free(targetId);
    const { type } = request;
    const capture = async () =>
      request.ref
        ? (await locate(tab, request.ref, undefined)).screenshot({ type })
        : request.selector
          ? tab.page.locator(request.selector).first().screenshot({ type })
          : tab.page.screenshot({ type, fullPage: request.fullPage === true, timeout: CAPTURE_TIMEOUT_MS });
    const ms = CAPTURE_TIMEOUT_MS + SLACK_MS;
    const bytes = await pageAnswer(capture(), ms, "the screenshot", tab.targetId, CAPTURE_TIMEOUT_MS);
    return { targetId: tab.targetId, url: tab.page.url(), bytes };
  }

  async pdf(targetId: string | undefined): Promise<Capture> {
    const tab = await this.free(targetId);
    const printing = tab.page.pdf({ printBackground: true });
    const bytes = await pageAnswer(printing, CAPTURE_TIMEOUT_MS + SLACK_MS, "the pdf", tab.targetId);
    return { targetId: tab.targetId, url: tab.page.url(), bytes };
  }

  async console(targetId: string | undefined): Promise<{ targetId: string; messages: ConsoleEntry[] }> {
    const tab = await this.runtime.tab(targetId);
    return { targetId: tab.targetId, messages: [...tab.console] };
  }

  async upload(targetId: string | undefined, request: UploadRequest): Promise<{ targetId: string }> {
    // the staged files are ours from this call on: a missing tab must not leave them behind
    const tab = await this.runtime.tab(targetId).catch(async (error: unknown) => {
      await rm(request.dir, { recursive: true, force: true });
      throw error;
    });
    tab.addStaged(request.dir);
    tab.dialogs.assertFree();
    const { files, ref, selector } = request;
    if (ref || selector) {
      const el = await locate(tab, ref, selector);
      const isFileInput = await el.evaluate(
        (node) => node instanceof HTMLInputElement && node.type === "file",
      );
      if (isFileInput) await el.setInputFiles(files);
      else {
        tab.armUpload(files);
        await el.click();
      }
    } else tab.armUpload(files);
    return { targetId: tab.targetId };
  }

  async dialog(
    targetId: string | undefined,
    answer: { accept: boolean; promptText?: string },
  ): Promise<DialogAnswer> {
    const tab = await this.runtime.tab(targetId);
    const { answered, resumed } = await tab.dialogs.answer(answer.accept, answer.promptText);
    return {
      targetId: tab.targetId,
      url: tab.page.url(),
      ...(answered ? { answered } : {}),
      ...(resumed ? { resumed } : {}),
    };
  }

  /**
   * The tab, once no dialog holds it (any page call would hang behind one) and a navigation it
   * has started (a page script's redirect, a form a key submitted) has its answer: what it reads
   * then is the page that navigation loads. One that does not answer in time is stopped, as
   * `navigate` stops its own.
   */
  private async free(targetId: string | undefined): Promise<Tab> {
    const tab = await this.runtime.tab(targetId);
    tab.dialogs.assertFree();
    const pending = tab.pendingNavigation;
    if (pending !== undefined && !(await tab.navigationAnswered(this.runtime.actionTimeoutMs)))
      throw await stopNavigation(tab.page, this.runtime.actionTimeoutMs, `The page at ${pending}`);
    return tab;
  }
}

/** The element an action names (its ref or selector), for its error; none for page-wide kinds. */
function elementOf(request: ActRequest): string | undefined {
  if (request.kind === "wait" || request.kind === "evaluate") return undefined;
  return request.ref ?? request.selector ?? request.startRef ?? request.startSelector;
}
