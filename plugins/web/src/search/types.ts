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
  /** JSON over the guarded fetcher (trusted policy, 30 s timeout). */
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
  search(request: SearchRequest, call: ProviderCall): Promise<SearchPayload>;
}

export async function json<T>(
  call: ProviderCall,
  url: string,
  init: Parameters<ProviderCall["http"]>[1],
  provider: string,
): Promise<T> {
  const res = await call.http(url, init);
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`${provider} search failed (${res.status}): ${res.text.slice(0, 500)}`);
  }
  try {
    return JSON.parse(res.text) as T;
  } catch {
    throw new Error(`${provider} search returned invalid JSON`);
  }
}

export const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
};
