export { type ActKind, type ActRequest, ACT_KINDS, staleRef } from "./browser/act.js";
export { findChromium, NO_CHROMIUM } from "./browser/chromium-path.js";
export { BrowserHost } from "./browser/host.js";
export { BrowserRuntime, CHROMIUM_ARGS, DEFAULT_PROFILE, USER_PROFILE } from "./browser/runtime.js";
export {
  EFFICIENT_DEPTH,
  EFFICIENT_MAX_CHARS,
  SNAPSHOT_MAX_CHARS,
  TRUNCATED_NOTICE,
} from "./browser/snapshot.js";
export { SUPPORTED_COMPONENTS } from "./canvas/a2ui.js";
export {
  type CanvasHost,
  type CanvasPlacement,
  type CanvasSnapshot,
  ChromiumCanvasHost,
} from "./canvas/host.js";
export { type BrowserConfig, type UiConfig, UiConfigSchema } from "./config.js";
export { createUiPlugin, type UiPluginOptions, uiPlugin, uiPlugin as default } from "./plugin.js";
export { BROWSER_ACTIONS, BROWSER_DISABLED, createBrowserTool } from "./tools/browser.js";
export { CANVAS_ACTIONS, createCanvasTool } from "./tools/canvas.js";
