import { LinkedFiles } from "@clawtools/core/resources";
import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  type SectionConfig,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import type { Lookup } from "@clawtools/core/safety";
import { PlaywrightBrowserDriver } from "./browser/host.js";
import type { CanvasHost } from "./canvas/host-types.js";
import { type UiConfig, UiConfigSchema } from "./config.js";
import type { BrowserDriver, BrowserDriverFactory } from "./driver/types.js";
import { createBrowserTool } from "./tools/browser.js";
import { createCanvasTool } from "./tools/canvas.js";
import { browserPolicy } from "./url-check.js";

export interface UiPluginOptions extends UiConfig {
  /**
   * The browser behind the `browser` tool (and the canvas, when it offers one): a factory called
   * once per toolset, or one driver for every toolset. Default: playwright-core on Debian's
   * Chromium behind the egress proxy (`PlaywrightBrowserDriver`).
   */
  driver?: BrowserDriver | BrowserDriverFactory;
  /** A canvas host of your own (a Gateway node); default: the driver's canvas page. */
  canvasHost?: (ctx: ToolContext) => CanvasHost;
  /** DNS resolver of the browser's URL policy (tests answer names; default: the system's). */
  lookup?: Lookup;
}

const defaultDriver: BrowserDriverFactory = (init) => new PlaywrightBrowserDriver(init);

/** One browser driver per toolset (per context object), shared by browser and canvas, disposed with it. */
export function createUiPlugin(options: UiPluginOptions = {}): ClawtoolsPlugin {
  const { canvasHost, lookup, driver, ...inCode } = options;
  if (driver !== undefined && typeof driver !== "function" && typeof driver?.session !== "function")
    throw new TypeError("ui: driver must be a BrowserDriver or a function returning one");
  const factory: BrowserDriverFactory = typeof driver === "function" ? driver : defaultDriver;
  const shared = typeof driver === "object" ? driver : undefined;
  const drivers = new WeakMap<ToolContext, BrowserDriver>();
  const live = new Set<BrowserDriver>();

  const driverFor = (ctx: ToolContext, section: SectionConfig<UiConfig>): BrowserDriver => {
    if (shared) return shared;
    let made = drivers.get(ctx);
    if (!made) {
      if (!ctx.stateDir)
        throw new ToolUnavailableError("no state directory (set context.stateDir or context.workspaceDir)");
      const config = section.read(ctx).browser ?? {};
      const created = factory({
        config,
        stateDir: ctx.stateDir,
        policy: browserPolicy(config),
        ...(lookup ? { lookup } : {}),
      });
      if (typeof created?.session !== "function")
        throw new ToolUnavailableError("ui: the driver factory returned no BrowserDriver");
      made = created;
      drivers.set(ctx, created);
      live.add(created);
      ctx.onDispose?.(async () => {
        live.delete(created);
        await created.dispose();
      });
    }
    return made;
  };

  // screenshots, PDFs and canvas snapshots, each readable only by the session whose call made it
  const files = new LinkedFiles({
    prefix: "clawtools://ui/file/",
    name: "browser and canvas file",
    description:
      "A screenshot, PDF or canvas snapshot a browser or canvas call made, readable by the session that made it",
  });
  return defineSectionPlugin({
    module: import.meta.url,
    config: inCode,
    description: "UI: browser and canvas on a real Chromium (playwright-core)",
    section: "ui",
    configSchema: UiConfigSchema,
    tools: (section) => [
      {
        name: "browser",
        factory: (ctx) => {
          const config = section.read(ctx).browser ?? {};
          if (!ctx.stateDir)
            throw new ToolUnavailableError(
              "no state directory (set context.stateDir or context.workspaceDir)",
            );
          return createBrowserTool(ctx, {
            driver: driverFor(ctx, section),
            config,
            stateDir: ctx.stateDir,
            files,
            ...(lookup ? { lookup } : {}),
            ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
          });
        },
      },
      {
        name: "canvas",
        factory: (ctx) => {
          const config = section.read(ctx);
          if (config.canvas?.enabled === false) return null;
          const size = { width: config.canvas?.width ?? 1280, height: config.canvas?.height ?? 720 };
          const host = canvasHost?.(ctx) ?? driverFor(ctx, section).canvas?.(size);
          // a driver without a canvas page and no canvasHost: no canvas tool rather than a broken one
          if (!host) return null;
          return createCanvasTool(ctx, {
            host,
            ...(ctx.stateDir ? { stateDir: ctx.stateDir, files } : {}),
            ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
          });
        },
      },
    ],
    resources: files,
    dispose: async () => {
      await Promise.all([...live, ...(shared ? [shared] : [])].map((d) => d.dispose()));
      live.clear();
    },
  });
}

export const uiPlugin = createUiPlugin();
export default uiPlugin;
