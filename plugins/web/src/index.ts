export { TtlCache } from "./cache.js";
export {
  readWebConfig,
  SEARCH_PROVIDER_IDS,
  urlPolicyOf,
  type WebConfig,
  type WebFetchConfig,
  type WebSearchConfig,
  webConfigSchema,
} from "./config.js";
export { decodeBody, sniffCharset } from "./extract/charset.js";
export { HIDDEN_CLASS_NAMES, UNSEEN_TAGS } from "./extract/hidden-rules.js";
export {
  type Extracted,
  type ExtractMode,
  type ExtractOptions,
  extractHtml,
  loadMarkdownConverter,
} from "./extract/html.js";
export { isStyleHidden, removeHiddenElements, stripInvisibleUnicode } from "./extract/visibility.js";
export { createWebPlugin, default, type WebPluginOptions, webPlugin } from "./plugin.js";
export {
  NO_PROVIDER_HINT,
  resolveSearchProvider,
  SEARCH_PROVIDERS,
  type SearchProviderId,
} from "./search/registry.js";
export type { SearchHit, SearchPayload, SearchProvider, SearchRequest } from "./search/types.js";
export {
  createWebFetchTool,
  PRIVATE_NETWORK_HINT,
  type WebFetchOptions,
  type WebFetchResult,
  webFetchSchema,
} from "./tools/web-fetch.js";
export { createWebSearchTool, type WebSearchOptions, webSearchSchema } from "./tools/web-search.js";
