export { findChromium, NO_CHROMIUM } from "./browser/chromium-path.js";
export { PlaywrightBrowserDriver } from "./browser/host.js";
export { PlaywrightSession } from "./browser/playwright-session.js";
export { BrowserRuntime, CHROMIUM_ARGS, DEFAULT_PROFILE, USER_PROFILE } from "./browser/runtime.js";
export { SUPPORTED_COMPONENTS } from "./canvas/a2ui.js";
export { ChromiumCanvasHost } from "./canvas/host.js";
export type { CanvasHost, CanvasPlacement, CanvasSnapshot } from "./canvas/host-types.js";
export { type BrowserConfig, type UiConfig, UiConfigSchema } from "./config.js";
export {
  ACT_KINDS,
  type ActKind,
  type ActRequest,
  EVALUATE_DISABLED,
  type FillField,
  staleRef,
  validateAct,
} from "./driver/act-request.js";
export {
  ARIA_LIMIT_DEFAULT,
  ARIA_LIMIT_MAX,
  EFFICIENT_DEPTH,
  EFFICIENT_MAX_CHARS,
  SNAPSHOT_MAX_CHARS,
  TRUNCATED_NOTICE,
} from "./driver/limits.js";
export type {
  ActionResult,
  AriaValue,
  BrowserDriver,
  BrowserDriverFactory,
  BrowserDriverInit,
  BrowserSession,
  BrowserStatus,
  Capture,
  ConsoleEntry,
  DialogAnswer,
  DialogReport,
  Outcome,
  PageLoad,
  ProfileInfo,
  ScreenshotRequest,
  SnapshotRequest,
  SnapshotValue,
  TabInfo,
  UploadRequest,
} from "./driver/types.js";
export { createUiPlugin, type UiPluginOptions, uiPlugin, uiPlugin as default } from "./plugin.js";
export { BROWSER_ACTIONS, BROWSER_DISABLED, createBrowserTool } from "./tools/browser.js";
export { CANVAS_ACTIONS, createCanvasTool } from "./tools/canvas.js";
export { browserPolicy, checkNavigation } from "./url-check.js";
