import { Type } from "@clawtools/core";
import { hostOf, json, type SearchProvider } from "../types.js";

const TavilyResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      title: Type.String(),
      url: Type.String(),
      content: Type.Optional(Type.String()),
      published_date: Type.Optional(Type.String()),
    }),
  ),
});

/** Tavily: POST /search with a Bearer key. */
export const tavily: SearchProvider = {
  id: "tavily",
  order: 70,
  env: ["TAVILY_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.tavily.com",
  domainFilter: true,
  async search(req, call) {
    const body: Record<string, unknown> = { query: req.query, max_results: req.count, search_depth: "basic" };
    if (req.freshness) body.time_range = req.freshness;
    if (req.country) body.country = req.country;
    if (req.domain_filter) body.include_domains = req.domain_filter;
    const data = await json(
      call,
      `${call.baseUrl.replace(/\/$/, "")}/search`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${call.apiKey}`, "content-type": "application/json" },
        body,
      },
      "Tavily",
      TavilyResponse,
    );
    return {
      kind: "results",
      results: data.results.map((r) => ({
        title: r.title,
        url: r.url,
        description: r.content ?? "",
        ...(r.published_date ? { published: r.published_date } : {}),
        ...(hostOf(r.url ?? "") ? { siteName: hostOf(r.url ?? "")! } : {}),
      })),
    };
  },
};
