import { Type } from "@clawtools/core";
import { hostOf, json, type SearchProvider } from "../types.js";

const SearxResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      title: Type.Optional(Type.String()),
      url: Type.String(),
      content: Type.Optional(Type.String()),
      publishedDate: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      engine: Type.Optional(Type.String()),
    }),
  ),
});

/** A self-hosted SearXNG instance (keyless): GET /search?format=json. Needs SEARXNG_BASE_URL. */
export const searxng: SearchProvider = {
  id: "searxng",
  order: 200,
  env: ["SEARXNG_BASE_URL"],
  needsKey: false,
  defaultBaseUrl: "",
  async search(req, call) {
    const url = new URL("search", call.baseUrl.endsWith("/") ? call.baseUrl : `${call.baseUrl}/`);
    url.searchParams.set("q", req.query);
    url.searchParams.set("format", "json");
    if (req.language) url.searchParams.set("language", req.language);
    if (req.freshness) url.searchParams.set("time_range", req.freshness);
    const data = await json(
      call,
      url.href,
      { headers: { accept: "application/json" } },
      "SearXNG",
      SearxResponse,
    );
    return {
      kind: "results",
      results: data.results.slice(0, req.count).map((r) => ({
        title: r.title ?? "",
        url: r.url,
        description: r.content ?? "",
        ...(r.publishedDate ? { published: r.publishedDate } : {}),
        ...(hostOf(r.url ?? "") ? { siteName: hostOf(r.url ?? "")! } : {}),
      })),
    };
  },
};
