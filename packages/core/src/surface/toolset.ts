import type { ToolMeta } from "../catalog.js";
import type { PromptSource } from "../prompts/toolset-prompts.js";
import type { ResourceSource } from "../resources/toolset-resources.js";
import type { AnyAgentTool } from "../tool.js";
import { type CodeSurfaceOptions, createCodeSurface } from "./code-surface.js";
import { createSearchSurface, type SearchSurfaceOptions } from "./search-surface.js";

/** What a surface wraps: a toolset whose `tools` may change (a getter) and says so. */
export type SurfaceableToolset = {
  readonly tools: readonly AnyAgentTool[];
  meta?(name: string): ToolMeta | undefined;
  onToolsChanged?(listener: () => void): () => void;
  dispose?(): Promise<void>;
  resources?: ResourceSource;
  prompts?: PromptSource;
};

/**
 * Which tools a host sees: every tool (`direct`), OpenClaw's Tool Search controls (`search`),
 * or OpenClaw's code mode (`code`: `exec` and `wait` over a QuickJS sandbox).
 */
export type ToolSurface = "direct" | "search" | "code";
export const TOOL_SURFACES: readonly ToolSurface[] = ["direct", "search", "code"];

export type ToolSurfaceOptions = SearchSurfaceOptions & CodeSurfaceOptions;

/**
 * The toolset as a host sees it under a surface: for `search`, three tools over the live catalog;
 * for `code`, two.
 * The surface is rebuilt when the catalog's array changes, so a tool that comes or goes at run
 * time (a mounted server coming back) is searchable at once, and listeners hear of the change.
 * Only `tools`, `meta`, `onToolsChanged`, `dispose`, `onRoots`, `resources` and `prompts` pass through: the result is a
 * view, not the toolset.
 */
export function withToolSurface<T extends SurfaceableToolset & { onRoots?: unknown }>(
  toolset: T,
  surface: ToolSurface,
  options: ToolSurfaceOptions = {},
): SurfaceView<T> {
  if (surface === "direct") return toolset as unknown as SurfaceView<T>;
  let seen: readonly AnyAgentTool[] | undefined;
  let surfaced: AnyAgentTool[] = [];
  const view = {
    get tools() {
      const tools = toolset.tools;
      if (tools !== seen) {
        seen = tools;
        const catalog = { tools, ...(toolset.meta ? { meta: (n: string) => toolset.meta!(n) } : {}) };
        surfaced =
          surface === "code" ? createCodeSurface(catalog, options) : createSearchSurface(catalog, options);
      }
      return surfaced;
    },
    ...(toolset.onToolsChanged
      ? { onToolsChanged: (listener: () => void) => toolset.onToolsChanged!(listener) }
      : {}),
    ...(toolset.dispose ? { dispose: () => toolset.dispose!() } : {}),
    ...(toolset.onRoots !== undefined ? { onRoots: toolset.onRoots } : {}),
    // resources are the toolset's whatever surface shows its tools
    ...(toolset.resources ? { resources: toolset.resources } : {}),
    ...(toolset.prompts ? { prompts: toolset.prompts } : {}),
  };
  return view as SurfaceView<T>;
}

/** What a surface passes through: the tools as surfaced, and a session's roots listener if it has one. */
export type SurfaceView<T> = SurfaceableToolset & { tools: AnyAgentTool[] } & Pick<
    T,
    Extract<keyof T, "onRoots">
  >;
