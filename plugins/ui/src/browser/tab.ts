import { rm } from "node:fs/promises";
import { withTimeout } from "@clawtools/core/time";
import type { FileChooser, Frame, Page, Request } from "playwright-core";
import type { ConsoleEntry } from "../driver/types.js";
import { DialogKeeper } from "./dialogs.js";
import type { RoleRef } from "./snapshot.js";

/** Refs of the latest snapshot of a tab: only these resolve; anything else is stale. */
export type SnapshotRefs = (
  | { mode: "aria"; refs: Set<string> }
  | { mode: "role"; refs: Map<string, RoleRef> }
) & {
  /** The frame (selector) the snapshot was taken in. */
  frame?: string;
};

const CONSOLE_LIMIT = 500;

/** One browser tab: its page, its stable id, and what the tools remember about it. */
export class Tab {
  readonly console: ConsoleEntry[] = [];
  refs: SnapshotRefs | undefined;
  readonly dialogs = new DialogKeeper();
  private upload: { files: string[] } | undefined;
  // staging directories of this tab's uploads: Chromium reads them lazily, so they live as long as the page
  private readonly staged = new Set<string>();
  private cleaning: Promise<void> | undefined;
  /**
   * The main frame's navigation request with no answer yet (the latest, when one replaced
   * another), and what settles once none is pending any more.
   */
  private navigation: { request: Request; settled: Promise<void>; settle: () => void } | undefined;

  constructor(
    readonly targetId: string,
    readonly page: Page,
  ) {
    page.on("console", (message) => {
      const location = message.location();
      this.console.push({
        type: message.type(),
        text: message.text(),
        timestamp: new Date().toISOString(),
        ...(location.url ? { location } : {}),
      });
      if (this.console.length > CONSOLE_LIMIT) this.console.splice(0, this.console.length - CONSOLE_LIMIT);
    });
    page.on("pageerror", (error) => {
      this.console.push({
        type: "error",
        text: String(error.message ?? error),
        timestamp: new Date().toISOString(),
      });
    });
    // Answered as armed, accepted (alerts), or kept open for the model: see DialogKeeper.
    page.on("dialog", (dialog) => void this.dialogs.onDialog(dialog));
    page.on("filechooser", (chooser) => void this.answerChooser(chooser));
    page.on("close", () => void this.cleanup());
    // A navigation makes every ref of the old document stale.
    page.on("framenavigated", (frame) => {
      if (frame !== page.mainFrame()) return;
      this.refs = undefined;
      this.navigationEnded();
    });
    // the main frame's navigation request that has no answer yet (a click on a link to a slow server)
    page.on("request", (request) => {
      if (!request.isNavigationRequest() || frameOf(request) !== page.mainFrame()) return;
      if (this.navigation) {
        this.navigation.request = request;
        return;
      }
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => {
        settle = resolve;
      });
      this.navigation = { request, settled, settle };
    });
    const answered = (request: Request) => {
      if (request === this.navigation?.request) this.navigationEnded();
    };
    page.on("response", (response) => answered(response.request()));
    page.on("requestfailed", answered);
  }

  /** The URL the main frame is loading and has no answer for yet, if any. */
  get pendingNavigation(): string | undefined {
    return this.navigation?.request.url();
  }

  /**
   * Resolves once the main frame's pending navigation has its answer (at once when there is
   * none); false when `timeoutMs` ran out first.
   */
  navigationAnswered(timeoutMs: number): Promise<boolean> {
    if (!this.navigation) return Promise.resolve(true);
    return withTimeout(
      this.navigation.settled.then(() => true),
      timeoutMs,
      { onTimeout: () => false },
    );
  }

  private navigationEnded(): void {
    this.navigation?.settle();
    this.navigation = undefined;
  }

  /** The next file chooser gets these files (OpenClaw's `upload` action arms it). */
  armUpload(files: string[]): void {
    this.upload = { files };
  }

  /** Keeps a staging directory until the page closes. */
  addStaged(dir: string): void {
    if (this.page.isClosed()) void rm(dir, { recursive: true, force: true });
    else this.staged.add(dir);
  }

  /**
   * Removes this tab's staged uploads once its page is closed (or `force`: the server is
   * stopping); safe to await from several places.
   */
  cleanup(force = false): Promise<void> {
    if (!force && !this.page.isClosed()) return Promise.resolve();
    this.cleaning ??= Promise.all(
      [...this.staged].map((dir) => rm(dir, { recursive: true, force: true })),
    ).then(() => {
      this.staged.clear();
      this.cleaning = undefined;
    });
    return this.cleaning;
  }

  get uploadArmed(): boolean {
    return this.upload !== undefined;
  }

  private async answerChooser(chooser: FileChooser): Promise<void> {
    const armed = this.upload;
    if (!armed) return;
    this.upload = undefined;
    try {
      await chooser.setFiles(armed.files);
    } catch (error) {
      this.console.push({
        type: "error",
        text: `upload failed: ${(error as Error).message}`,
        timestamp: new Date().toISOString(),
      });
    }
  }
}

/** A request's frame; none for a service worker's own requests (Playwright throws for those). */
function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}
