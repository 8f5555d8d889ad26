import type { Static, TSchema } from "@clawtools/core";
import { redactSecrets } from "@clawtools/core/safety";
import { schemaIssues } from "@clawtools/core/wrap";

export interface SearchRequest {
  query: string;
  count: number;
  country?: string;
  language?: string;
  freshness?: "day" | "week" | "month" | "year";
  date_after?: string;
  date_before?: string;
  search_lang?: string;
  ui_lang?: string;
  /** Only results from these domains (Perplexity, Tavily, Exa). */
  domain_filter?: string[];
}

export interface SearchHit {
  title: string;
  url: string;
  description: string;
  published?: string;
  siteName?: string;
}

/** A provider answers with a list of hits or with a synthesised answer plus citations. */
export type SearchPayload =
  | { kind: "results"; results: SearchHit[] }
  | { kind: "answer"; content: string; citations: string[] };

export interface ProviderCall {
  apiKey?: string;
  baseUrl: string;
  signal?: AbortSignal;
  /** Core's HTTP client (trusted policy, the configured timeout for the whole call, retries for 429 / 5xx). */
  http(
    url: string,
    init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: unknown },
  ): Promise<{ status: number; text: string }>;
}

export interface SearchProvider {
  id: "brave" | "perplexity" | "grok" | "tavily" | "exa" | "searxng" | "duckduckgo";
  /** Auto-detection order (lower first). */
  order: number;
  /** Environment variables that configure it (first found wins). */
  env: string[];
  /** Whether it needs an API key (SearXNG needs a base URL instead, DuckDuckGo nothing). */
  needsKey: boolean;
  defaultBaseUrl: string;
  /** Whether it can restrict results to given domains (`domain_filter`). */
  domainFilter?: boolean;
  search(request: SearchRequest, call: ProviderCall): Promise<SearchPayload>;
}

/**
 * Calls a provider and checks its JSON answer against the documented shape, so a changed API is
 * a clear error naming the provider and the field instead of silent `undefined`s.
 */
export async function json<S extends TSchema>(
  call: ProviderCall,
  url: string,
  init: Parameters<ProviderCall["http"]>[1],
  provider: string,
  schema: S,
): Promise<Static<S>> {
  const res = await call.http(url, init);
  if (res.status < 200 || res.status >= 300) {
    // some APIs echo the key back: it (and every registered secret) comes out
    const excerpt = redactSecrets(res.text, call.apiKey ? [call.apiKey] : []).slice(0, 500);
    throw new Error(`${provider} search failed (${res.status}): ${excerpt}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(res.text);
  } catch {
    throw new Error(`${provider} search returned invalid JSON`);
  }
  const issues = schemaIssues(schema, data);
  if (issues.length > 0) {
    throw new Error(
      `${provider} search returned an unexpected response (has its API changed?):\n${issues.join("\n")}`,
    );
  }
  return data as Static<S>;
}

export const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
};
