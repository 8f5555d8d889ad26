export { TtlCache } from "./cache.js";
export { type Extracted, type ExtractMode, extractHtml } from "./extract/html.js";
export { removeHiddenElements, stripInvisibleUnicode } from "./extract/visibility.js";
export { createWebPlugin, default, type WebPluginOptions, webPlugin } from "./plugin.js";
export {
  NO_PROVIDER_HINT,
  resolveSearchProvider,
  SEARCH_PROVIDERS,
  type SearchProviderId,
} from "./search/registry.js";
export type { SearchHit, SearchPayload, SearchProvider, SearchRequest } from "./search/types.js";
export { type GuardedFetchOptions, type GuardedResponse, guardedFetch } from "./ssrf/fetch-guard.js";
export { blockedReason, isLegacyIpLike, parseIpLiteral } from "./ssrf/ip.js";
export {
  BLOCKED_HOST,
  BLOCKED_RESOLVED,
  type Lookup,
  resolvePinned,
  SsrfBlockedError,
  type SsrfPolicy,
} from "./ssrf/policy.js";
export {
  createWebFetchTool,
  type WebFetchOptions,
  type WebFetchResult,
  webFetchSchema,
} from "./tools/web-fetch.js";
export { createWebSearchTool, type WebSearchOptions, webSearchSchema } from "./tools/web-search.js";
