import {
  type AgentTool,
  jsonResult,
  optionalStringEnum,
  type ToolContext,
  ToolInputError,
  ToolUnavailableError,
  Type,
  wrapExternalContent,
} from "@clawtools/core";
import type { Lookup } from "@clawtools/core/safety";
import { httpRequest } from "@clawtools/core/http";
import { TtlCache } from "../cache.js";
import { readWebConfig, SEARCH_PROVIDER_IDS, type WebSearchConfig } from "../config.js";
import {
  type ResolvedProvider,
  resolveSearchProvider,
  type SearchProviderConfig,
  type SearchProviderId,
} from "../search/registry.js";
import type { SearchRequest } from "../search/types.js";

export const webSearchSchema = Type.Object(
  {
    query: Type.String({ description: "Search query string." }),
    count: Type.Optional(
      Type.Number({ description: "Number of results to return (1-10).", minimum: 1, maximum: 10 }),
    ),
    country: Type.Optional(
      Type.String({
        description: "2-letter country code for region-specific results (e.g., 'DE', 'US', 'ALL').",
      }),
    ),
    language: Type.Optional(
      Type.String({ description: "ISO 639-1 language code for results (e.g., 'en', 'de')." }),
    ),
    freshness: optionalStringEnum(["day", "week", "month", "year"] as const, {
      description: "Filter by time: day, week, month or year.",
    }),
    date_after: Type.Optional(
      Type.String({ description: "Only results published after this date (YYYY-MM-DD)." }),
    ),
    date_before: Type.Optional(
      Type.String({ description: "Only results published before this date (YYYY-MM-DD)." }),
    ),
    search_lang: Type.Optional(
      Type.String({ description: "Brave: language code for search results (e.g., 'en', 'de')." }),
    ),
    ui_lang: Type.Optional(
      Type.String({ description: "Brave: locale code for UI elements (e.g., 'en-US')." }),
    ),
    domain_filter: Type.Optional(
      Type.Array(Type.String(), {
        description: "Only results from these domains (Perplexity, Tavily and Exa).",
      }),
    ),
  },
  { additionalProperties: false },
);

/** `config.web.search` (`provider`, `<provider>.apiKey|baseUrl`, …) plus what only code can give. */
export interface WebSearchOptions extends WebSearchConfig {
  /** Keys and base URLs per provider, the same as `<provider>: {apiKey, baseUrl}`. */
  providers?: Partial<Record<SearchProviderId, SearchProviderConfig>>;
  env?: NodeJS.ProcessEnv;
  lookup?: Lookup;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function searchRequest(params: Record<string, unknown>): SearchRequest {
  const query = typeof params.query === "string" ? params.query.trim() : "";
  if (!query) throw new ToolInputError("query required");
  const count = Math.min(10, Math.max(1, Math.floor(Number(params.count ?? 5)) || 5));
  for (const key of ["date_after", "date_before"] as const) {
    if (params[key] !== undefined && !DATE.test(String(params[key])))
      throw new ToolInputError(`${key} must be YYYY-MM-DD`);
  }
  if (params.freshness && (params.date_after || params.date_before)) {
    throw new ToolInputError(
      "freshness and date_after/date_before cannot be combined; use one or the other.",
    );
  }
  const out: SearchRequest = { query, count };
  if (Array.isArray(params.domain_filter) && params.domain_filter.length > 0)
    out.domain_filter = params.domain_filter.map(String);
  for (const key of [
    "country",
    "language",
    "freshness",
    "date_after",
    "date_before",
    "search_lang",
    "ui_lang",
  ] as const) {
    if (typeof params[key] === "string" && params[key])
      (out as unknown as Record<string, unknown>)[key] = params[key];
  }
  return out;
}

export function createWebSearchTool(
  ctx: ToolContext = {},
  options: WebSearchOptions = {},
): AgentTool<typeof webSearchSchema, unknown> {
  const { env, lookup, providers, ...inCode } = options;
  const config = readWebConfig(ctx, { search: { ...providers, ...inCode } }).search ?? {};
  if (config.enabled === false)
    throw new ToolUnavailableError("disabled by configuration (web.search.enabled: false)");
  const configured = Object.fromEntries(
    SEARCH_PROVIDER_IDS.flatMap((id) => (config[id] ? [[id, config[id]]] : [])),
  );
  const resolved = resolveSearchProvider(
    { ...(config.provider ? { provider: config.provider } : {}), providers: configured },
    env ?? process.env,
  );
  if ("error" in resolved) throw new ToolUnavailableError(resolved.error);
  const { provider, apiKey, baseUrl }: ResolvedProvider = resolved;
  const cache = new TtlCache<Record<string, unknown>>((config.cacheTtlMinutes ?? 15) * 60_000, 100);
  return {
    name: "web_search",
    label: "web_search",
    description: `Search the web (${provider.id}). Returns titles, URLs and snippets (or a synthesised answer with citations) for fast research.`,
    parameters: webSearchSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      const request = searchRequest(params as Record<string, unknown>);
      if (request.domain_filter && !provider.domainFilter)
        throw new ToolInputError(
          `domain_filter is not supported by the ${provider.id} provider (perplexity, tavily and exa support it)`,
        );
      const key = JSON.stringify([provider.id, request]).toLowerCase();
      const hit = cache.get(key);
      if (hit) return jsonResult({ ...hit, cached: true });
      const started = Date.now();
      const payload = await provider.search(request, {
        ...(apiKey ? { apiKey } : {}),
        baseUrl,
        ...(signal ? { signal } : {}),
        http: async (url, init) => {
          const body =
            init.body === undefined
              ? undefined
              : typeof init.body === "string"
                ? init.body
                : JSON.stringify(init.body);
          const timeoutMs = (config.timeoutSeconds ?? 30) * 1000;
          // provider endpoints are trusted destinations (self-hosted SearXNG may be private); a
          // search is a read, so 429 / 5xx / network errors are retried (Retry-After honoured)
          // within the configured timeout, which bounds the whole call
          const res = await httpRequest(url, {
            policy: { allowPrivateNetwork: true },
            method: init.method ?? "GET",
            headers: init.headers ?? {},
            ...(body !== undefined ? { body } : {}),
            idempotent: true,
            timeoutMs,
            deadlineMs: timeoutMs,
            throwOnStatus: false,
            maxBytes: 5_000_000,
            label: `${provider.id} search`,
            ...(apiKey ? { secrets: [apiKey] } : {}),
            ...(signal ? { signal } : {}),
            ...(lookup ? { lookup } : {}),
          });
          return { status: res.status, text: res.text() };
        },
      });
      const externalContent = { untrusted: true, source: "web_search", provider: provider.id, wrapped: true };
      const tookMs = Date.now() - started;
      const result =
        payload.kind === "results"
          ? {
              query: request.query,
              provider: provider.id,
              count: payload.results.length,
              tookMs,
              externalContent,
              results: payload.results.slice(0, request.count).map((r) => ({
                title: wrapExternalContent(r.title, { source: "Web Search" }),
                url: r.url,
                description: wrapExternalContent(r.description, { source: "Web Search" }),
                ...(r.published ? { published: r.published } : {}),
                ...(r.siteName ? { siteName: r.siteName } : {}),
              })),
            }
          : {
              query: request.query,
              provider: provider.id,
              tookMs,
              externalContent,
              content: wrapExternalContent(payload.content, { source: "Web Search" }),
              citations: payload.citations,
            };
      cache.set(key, result);
      return jsonResult(result);
    },
  };
}
