import { type ClawtoolsPlugin, definePlugin } from "@clawtools/core";
import pkg from "../package.json" with { type: "json" };
import { createWebFetchTool, type WebFetchOptions } from "./tools/web-fetch.js";
import { createWebSearchTool, type WebSearchOptions } from "./tools/web-search.js";

export interface WebPluginOptions {
  fetch?: WebFetchOptions;
  search?: WebSearchOptions;
}

/** The web section: web_fetch (always) and web_search (when a provider is configured). */
export function createWebPlugin(options: WebPluginOptions = {}): ClawtoolsPlugin {
  return definePlugin({
    id: "@clawtools/web",
    version: pkg.version,
    description:
      "Web: web_fetch with an SSRF-proof fetcher and readable extraction, web_search over real providers",
    section: "web",
    tools: [
      { name: "web_search", factory: (ctx) => createWebSearchTool(ctx, options.search) },
      { name: "web_fetch", factory: (ctx) => createWebFetchTool(ctx, options.fetch) },
    ],
  });
}

export const webPlugin = createWebPlugin();
export default webPlugin;
