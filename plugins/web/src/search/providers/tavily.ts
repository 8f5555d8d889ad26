import { hostOf, json, type SearchProvider } from "../types.js";

interface TavilyResponse {
  results?: Array<{ title?: string; url?: string; content?: string; published_date?: string }>;
}

/** Tavily: POST /search with a Bearer key. */
export const tavily: SearchProvider = {
  id: "tavily",
  order: 70,
  env: ["TAVILY_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.tavily.com",
  async search(req, call) {
    const body: Record<string, unknown> = { query: req.query, max_results: req.count, search_depth: "basic" };
    if (req.freshness) body.time_range = req.freshness;
    if (req.country) body.country = req.country;
    const data = await json<TavilyResponse>(
      call,
      `${call.baseUrl.replace(/\/$/, "")}/search`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${call.apiKey}`, "content-type": "application/json" },
        body,
      },
      "Tavily",
    );
    return {
      kind: "results",
      results: (data.results ?? []).map((r) => ({
        title: r.title ?? "",
        url: r.url ?? "",
        description: r.content ?? "",
        ...(r.published_date ? { published: r.published_date } : {}),
        ...(hostOf(r.url ?? "") ? { siteName: hostOf(r.url ?? "")! } : {}),
      })),
    };
  },
};
