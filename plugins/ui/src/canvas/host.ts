/// <reference lib="dom" />
// page functions handed to Playwright run in the browser, so this file sees the DOM types
import type { Frame, Page } from "playwright-core";
import type { BrowserRuntime } from "../browser/runtime.js";
import { checkNavigation } from "../url-check.js";
import { A2uiState, CANVAS_PAGE_STYLE } from "./a2ui.js";
import type { CanvasHost, CanvasPlacement, CanvasSnapshot } from "./host-types.js";
import { ToolInputError } from "@clawtools/core";
import { delay, isTimeoutError, withTimeout } from "@clawtools/core/time";
import { SLACK_MS } from "../browser/page-answer.js";

export type { CanvasHost, CanvasPlacement, CanvasSnapshot };

const pageHtml = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Canvas</title><style>${CANVAS_PAGE_STYLE}</style></head><body>${body}</body></html>`;

// what CDP answers when the page's renderer changed under a session (the page itself is open)
const SESSION_DROPPED =
  /Not attached to an active page|has been closed|Session closed|Target closed|detached/i;
// what it answers while a new document has committed but not drawn its first frame
const NO_FRAME_YET = /Unable to capture screenshot/i;
const SWAP_ATTEMPTS = 3;
// how long a capture without a frame waits for one to be drawn
const FRAME_WAIT_MS = 1_000;
// how long one capture may take before it is given up and taken again
const CAPTURE_WAIT_MS = 5_000;
// how long a dropped capture waits for the navigation to commit
const SWAP_WAIT_MS = 5_000;

/**
 * One screenshot through a CDP session of its own. Chromium may never answer a capture taken as
 * a late navigation commits (seen through the CLI, about one in five such snapshots): the wait is
 * bounded, and a capture that ran out is taken again like one that met no frame.
 */
async function capture(page: Page, params: Record<string, unknown>): Promise<string> {
  const session = await page.context().newCDPSession(page);
  let answered = false;
  try {
    const shot = session.send("Page.captureScreenshot", params) as Promise<{ data: string }>;
    const { data } = await withTimeout(shot, CAPTURE_WAIT_MS, { what: "the canvas capture" });
    answered = true;
    return data;
  } finally {
    // a session whose capture never answered is let go without waiting on it
    if (answered) await session.detach().catch(() => {});
    else void session.detach().catch(() => {});
  }
}

/** The main frame's next commit (or the swap wait's end); `stop` lets go of the page. */
function nextCommit(page: Page): { settled: Promise<void>; stop: () => void } {
  const timer = new AbortController();
  let committed!: () => void;
  const onCommit = (frame: Frame) => {
    if (frame === page.mainFrame()) committed();
  };
  const settled = new Promise<void>((resolve) => {
    committed = resolve;
  });
  page.on("framenavigated", onCommit);
  return {
    settled: Promise.race([settled, delay(SWAP_WAIT_MS, { signal: timer.signal }).catch(() => {})]),
    stop: () => {
      page.off("framenavigated", onCommit);
      timer.abort();
    },
  };
}

/** Resolves once the page has drawn a frame (or the frame wait ends, or its document went away). */
function nextFrame(page: Page): Promise<void> {
  const drawn = page
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())))
    .catch(() => {});
  return withTimeout(drawn, FRAME_WAIT_MS, { onTimeout: () => {} });
}

/** The canvas as a page of the local Chromium (not one of the browser tool's tabs). */
export class ChromiumCanvasHost implements CanvasHost {
  private page: Page | undefined;
  private visible = false;
  private showingA2ui = false;
  private readonly a2ui = new A2uiState();

  constructor(
    private readonly runtime: BrowserRuntime,
    private readonly size: { width: number; height: number },
  ) {}

  private async ensurePage(placement?: CanvasPlacement): Promise<Page> {
    if (!this.page || this.page.isClosed()) {
      this.page = await this.runtime.newHiddenPage();
      await this.page.setViewportSize(this.size);
      await this.page.setContent(pageHtml(""));
      this.showingA2ui = true;
    }
    if (placement?.width && placement.height)
      await this.page.setViewportSize({
        width: Math.round(placement.width),
        height: Math.round(placement.height),
      });
    return this.page;
  }

  async present(options: { url?: string; placement?: CanvasPlacement }): Promise<void> {
    const page = await this.ensurePage(options.placement);
    if (options.url) await this.goto(page, options.url);
    this.visible = true;
  }

  async hide(): Promise<void> {
    this.visible = false;
  }

  async navigate(url: string): Promise<void> {
    await this.goto(await this.ensurePage(), url);
    this.visible = true;
  }

  private async goto(page: Page, url: string): Promise<void> {
    await this.runtime.goto(
      page,
      await checkNavigation(url, this.runtime.policy, this.runtime.lookup),
      "load",
    );
    this.showingA2ui = false;
  }

  /**
   * Runs the script in the canvas page, for at most the action timeout plus slack: a script that
   * never yields (the model's own loop, or the presented page's) would hold the canvas for ever,
   * so the page is closed then, and the next call opens a fresh one.
   */
  async eval(javaScript: string): Promise<unknown> {
    const page = await this.ensurePage();
    const ms = this.runtime.actionTimeoutMs + SLACK_MS;
    return withTimeout(page.evaluate(javaScript), ms, {
      onTimeout: async () => {
        await page.close({ runBeforeUnload: false }).catch(() => {});
        this.visible = false;
        throw new ToolInputError(
          `The canvas did not answer the eval within ${Math.round(ms / 1000)} s: a script in it never yields. The canvas page was closed; present again (action=present) to show something.`,
        );
      },
    });
  }

  /** A snapshot before any present presents first (an OpenClaw user request), instead of failing. */
  async snapshot(options: {
    format: "png" | "jpeg";
    maxWidth?: number;
    quality?: number;
    delayMs?: number;
  }): Promise<CanvasSnapshot> {
    if (!this.visible) await this.present({});
    const page = await this.ensurePage();
    if (options.delayMs) await delay(Math.min(options.delayMs, 10_000));
    const viewport = page.viewportSize() ?? this.size;
    const scale =
      options.maxWidth && options.maxWidth < viewport.width ? options.maxWidth / viewport.width : 1;
    // CDP scales the capture itself: no image library needed to honour maxWidth.
    const params = {
      format: options.format,
      ...(options.format === "jpeg" ? { quality: Math.min(100, Math.max(1, options.quality ?? 85)) } : {}),
      clip: { x: 0, y: 0, width: viewport.width, height: viewport.height, scale },
    };
    for (let attempt = 1; ; attempt++) {
      const commit = nextCommit(page);
      try {
        return { format: options.format, base64: await capture(page, params) };
      } catch (error) {
        // a navigation that commits during the capture (a present whose load timed out, a page
        // script's redirect) swaps the renderer and drops the session, or leaves a new document
        // with no frame drawn yet, or a capture Chromium never answers: taken again once it
        // loaded and drew one
        const message = String(error);
        const dropped = SESSION_DROPPED.test(message);
        const again = dropped || NO_FRAME_YET.test(message) || isTimeoutError(error);
        if (attempt >= SWAP_ATTEMPTS || page.isClosed() || !again) throw error;
        if (dropped) await commit.settled;
        await page.waitForLoadState("load").catch(() => {});
        await nextFrame(page);
      } finally {
        commit.stop();
      }
    }
  }

  async a2uiPush(messages: Array<Record<string, unknown>>): Promise<void> {
    this.a2ui.apply(messages);
    await this.showA2ui();
  }

  async a2uiReset(): Promise<void> {
    this.a2ui.reset();
    await this.showA2ui();
  }

  private async showA2ui(): Promise<void> {
    const page = await this.ensurePage();
    const html = this.a2ui.html();
    if (!this.showingA2ui) {
      await page.setContent(pageHtml(html));
      this.showingA2ui = true;
    } else
      await page.evaluate((body) => {
        document.body.innerHTML = body;
      }, html);
    this.visible = true;
  }
}
