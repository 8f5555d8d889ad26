import { type ClawtoolsPlugin, defineSectionPlugin, ToolUnavailableError } from "@clawtools/core";
import { readWebConfig, webConfigSchema } from "./config.js";
import { createWebFetchTool, type WebFetchOptions } from "./tools/web-fetch.js";
import { createWebSearchTool, type WebSearchOptions } from "./tools/web-search.js";

/** Options in code: the shape of `config.web` (which they override key by key) plus test seams. */
export interface WebPluginOptions {
  fetch?: WebFetchOptions;
  search?: WebSearchOptions;
}

/** The web section: web_fetch (always) and web_search (when a provider is configured). */
export function createWebPlugin(options: WebPluginOptions = {}): ClawtoolsPlugin {
  // options given in code are checked now, so a typo fails at creation, not at the first call
  const { lookup: _fetchLookup, ...fetchConfig } = options.fetch ?? {};
  const { env: _env, lookup: _searchLookup, providers, ...searchConfig } = options.search ?? {};
  return defineSectionPlugin({
    module: import.meta.url,
    // checked now; the tools read the context's config with their own overlay (readWebConfig)
    config: {
      ...(options.fetch ? { fetch: fetchConfig } : {}),
      ...(options.search ? { search: { ...providers, ...searchConfig } } : {}),
    },
    description:
      "Web: web_fetch with an SSRF-proof fetcher and readable extraction, web_search over real providers",
    section: "web",
    configSchema: webConfigSchema,
    tools: () => [
      { name: "web_search", factory: (ctx) => createWebSearchTool(ctx, options.search) },
      {
        name: "web_fetch",
        factory: (ctx) => {
          if (readWebConfig(ctx, { fetch: fetchConfig }).fetch?.enabled === false)
            throw new ToolUnavailableError("disabled by configuration (web.fetch.enabled: false)");
          return createWebFetchTool(ctx, options.fetch);
        },
      },
    ],
  });
}

export const webPlugin = createWebPlugin();
export default webPlugin;
