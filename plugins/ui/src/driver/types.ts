import type { Lookup, UrlPolicy } from "@clawtools/core/safety";
import type { CanvasHost } from "../canvas/host-types.js";
import type { BrowserConfig } from "../config.js";
import type { ActRequest } from "./act-request.js";

/**
 * The seam between the browser tool and a browser. The tool validates input, applies the URL
 * policy and `evaluateEnabled`, stages uploads through the workspace containment, writes media
 * files and wraps page text; a driver only drives pages and answers with plain values (never a
 * Playwright object). The default is `PlaywrightBrowserDriver` (playwright-core on Debian's
 * Chromium, behind the egress proxy). Errors meant for the model are `ToolInputError`s.
 */
export interface BrowserDriver {
  /** The profiles `action=profiles` lists (`name` at least). */
  profiles(): Promise<ProfileInfo[]>;
  /** One profile's browser (default profile when absent); an unknown name throws. */
  session(profile?: string): BrowserSession;
  /** A canvas page of this browser, when the driver has one (else the canvas needs a `canvasHost`). */
  canvas?(size: { width: number; height: number }): CanvasHost;
  /** Closes every browser it started; the toolset's dispose calls it. */
  dispose(): Promise<void>;
}

/**
 * One profile's browser, started on first use. `targetId` names a tab (stable across
 * navigations); absent, the current tab (one is opened when there is none). Calls that touch a
 * page throw while a dialog waits on it (see `ActionResult`).
 */
export interface BrowserSession {
  status(): Promise<BrowserStatus>;
  start(): Promise<void>;
  stop(): Promise<void>;
  tabs(): Promise<TabInfo[]>;
  /** Title and URL of a tab as it is now. */
  page(targetId?: string): Promise<TabInfo>;
  /** A new tab loading `url` (already checked by the tool's URL policy). */
  open(url: string): Promise<ActionResult<PageLoad>>;
  focus(targetId: string): Promise<void>;
  close(targetId?: string): Promise<void>;
  navigate(targetId: string | undefined, url: string): Promise<ActionResult<PageLoad>>;
  /** Throws `Cannot go back: …` / `Cannot go forward: …` at either end of the tab's history. */
  history(targetId: string | undefined, direction: "back" | "forward"): Promise<ActionResult<PageLoad>>;
  /** Refs in the text belong to the tab's latest snapshot; `act` resolves only those. */
  snapshot(targetId: string | undefined, request: SnapshotRequest): Promise<SnapshotValue>;
  aria(targetId: string | undefined, limit: number): Promise<AriaValue>;
  /** A validated request (`validateAct`); the value is what OpenClaw answers as JSON. */
  act(targetId: string | undefined, request: ActRequest): Promise<ActionResult<Record<string, unknown>>>;
  screenshot(targetId: string | undefined, request: ScreenshotRequest): Promise<Capture>;
  pdf(targetId: string | undefined): Promise<Capture>;
  console(targetId: string | undefined): Promise<{ targetId: string; messages: ConsoleEntry[] }>;
  /**
   * Sets files (already copied out of the workspace into `dir`) on a file input, or hands them
   * to the next file chooser. The driver owns `dir` from then on and removes it when the tab
   * closes or the browser stops.
   */
  upload(targetId: string | undefined, request: UploadRequest): Promise<{ targetId: string }>;
  /** Answers the open dialog (then waits for the action it interrupted), or arms the next one. */
  dialog(
    targetId: string | undefined,
    answer: { accept: boolean; promptText?: string },
  ): Promise<DialogAnswer>;
}

/** What the plugin hands a driver factory (`createUiPlugin({ driver: (init) => … })`). */
export interface BrowserDriverInit {
  config: BrowserConfig;
  /** The toolset's state directory (profiles, staged uploads). */
  stateDir: string;
  /** The URL policy every connection must meet (a driver that can enforce it per connection should). */
  policy: UrlPolicy;
  lookup?: Lookup;
}

export type BrowserDriverFactory = (init: BrowserDriverInit) => BrowserDriver;

export interface ProfileInfo {
  name: string;
  running: boolean;
  [key: string]: unknown;
}

/** `action=status`: at least these; a driver adds its own facts (`executablePath`, `cdpUrl`…). */
export interface BrowserStatus {
  profile: string;
  driver: string;
  running: boolean;
  tabCount: number;
  [key: string]: unknown;
}

export interface TabInfo {
  targetId: string;
  title: string;
  url: string;
  type: "page";
}

/** A finished navigation, as plain data. */
export interface PageLoad {
  ok: true;
  targetId: string;
  url: string;
}

/** A dialog as the model is told about it; `message` and `defaultValue` are page text. */
export interface DialogReport {
  kind: string;
  message: string;
  defaultValue?: string;
  /** How it was answered; absent while it waits for the model. */
  answer?: "accepted" | "dismissed";
  promptText?: string;
  /** Answered by an earlier `dialog` call (arming), automatically (an alert), or by the model. */
  by?: "armed" | "auto" | "model";
  pending?: true;
}

/**
 * An action's outcome: done with its value, or stopped halfway by a dialog that waits for the
 * model (`done: false`, the dialog `pending` in `dialogs`). Every dialog raised during the
 * action is in `dialogs`.
 */
export type Outcome<T> =
  | { done: true; value: T; dialogs: DialogReport[] }
  | { done: false; dialogs: DialogReport[] };

export type ActionResult<T> = Outcome<T> & { targetId: string; url: string };

export interface DialogAnswer {
  targetId: string;
  url: string;
  /** Absent: no dialog was open, the answer is armed for the next one. */
  answered?: DialogReport;
  /** How the interrupted action went on (absent when none was interrupted). */
  resumed?: Outcome<{ value?: unknown; error?: string }>;
}

export interface SnapshotRequest {
  refs: "role" | "aria";
  interactive: boolean;
  compact: boolean;
  depth?: number;
  selector?: string;
  frame?: string;
  maxChars: number;
  /** A screenshot with each ref drawn on its element. */
  labels?: { type: "png" | "jpeg" };
}

export interface SnapshotValue {
  targetId: string;
  url: string;
  /** One line per element, refs as `[ref=…]`; cut with `TRUNCATED_NOTICE` beyond `maxChars`. */
  text: string;
  truncated: boolean;
  lines: number;
  refCount: number;
  labels?: { image: Uint8Array; count: number; skipped: number };
}

export interface AriaValue {
  targetId: string;
  url: string;
  nodes: Array<Record<string, unknown>>;
}

export interface ScreenshotRequest {
  type: "png" | "jpeg";
  fullPage?: boolean;
  ref?: string;
  selector?: string;
}

export interface Capture {
  targetId: string;
  url: string;
  bytes: Uint8Array;
}

export interface ConsoleEntry {
  type: string;
  text: string;
  timestamp: string;
  location?: { url: string; lineNumber: number; columnNumber: number };
}

export interface UploadRequest {
  files: string[];
  dir: string;
  ref?: string;
  selector?: string;
}
