import { createRequire } from "node:module";
import {
  type ClawtoolsPlugin,
  definePlugin,
  type Lookup,
  parseSectionConfig,
  readSectionConfig,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import { BrowserHost } from "./browser/host.js";
import { DEFAULT_PROFILE } from "./browser/runtime.js";
import { ChromiumCanvasHost, type CanvasHost } from "./canvas/host.js";
import { type UiConfig, UiConfigSchema } from "./config.js";
import { createBrowserTool } from "./tools/browser.js";
import { createCanvasTool } from "./tools/canvas.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

export interface UiPluginOptions extends UiConfig {
  /** A canvas host of your own (a Gateway node); default: a page of the toolset's Chromium. */
  canvasHost?: (ctx: ToolContext) => CanvasHost;
  /** DNS resolver of the browser's URL policy (tests answer names; default: the system's). */
  lookup?: Lookup;
}

/** One browser host per toolset (per context object), shared by browser and canvas, closed on dispose. */
export function createUiPlugin(options: UiPluginOptions = {}): ClawtoolsPlugin {
  const { canvasHost, lookup, ...inCode } = options;
  parseSectionConfig("ui", UiConfigSchema, inCode);
  const hosts = new WeakMap<ToolContext, BrowserHost>();
  const live = new Set<BrowserHost>();

  const hostFor = (ctx: ToolContext): BrowserHost => {
    let host = hosts.get(ctx);
    if (!host) {
      if (!ctx.stateDir)
        throw new ToolUnavailableError("no state directory (set context.stateDir or context.workspaceDir)");
      const config = readSectionConfig(ctx, "ui", UiConfigSchema, inCode);
      const created = new BrowserHost(config.browser ?? {}, ctx.stateDir, lookup);
      host = created;
      hosts.set(ctx, created);
      live.add(created);
      ctx.onDispose?.(async () => {
        live.delete(created);
        await created.dispose();
      });
    }
    return host;
  };

  return definePlugin({
    id: "@clawtools/ui",
    version,
    description: "UI: browser and canvas on a real Chromium (playwright-core)",
    section: "ui",
    configSchema: UiConfigSchema,
    tools: [
      {
        name: "browser",
        factory: (ctx) =>
          createBrowserTool(ctx, {
            host: hostFor(ctx),
            ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
          }),
      },
      {
        name: "canvas",
        factory: (ctx) => {
          const config = readSectionConfig(ctx, "ui", UiConfigSchema, inCode);
          if (config.canvas?.enabled === false) return null;
          const host =
            canvasHost?.(ctx) ??
            new ChromiumCanvasHost(hostFor(ctx).runtime(DEFAULT_PROFILE), {
              width: config.canvas?.width ?? 1280,
              height: config.canvas?.height ?? 720,
            });
          return createCanvasTool(ctx, {
            host,
            ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
          });
        },
      },
    ],
    dispose: async () => {
      await Promise.all([...live].map((h) => h.dispose()));
      live.clear();
    },
  });
}

export const uiPlugin = createUiPlugin();
export default uiPlugin;
