import { Type } from "@clawtools/core";
import { hostOf, json, type SearchProvider } from "../types.js";

const Str = Type.Optional(Type.String());
const ExaResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      url: Type.String(),
      publishedDate: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      text: Str,
      highlights: Type.Optional(Type.Array(Type.String())),
      summary: Str,
    }),
  ),
});

/** Exa: POST /search with x-api-key, asking for a text excerpt of each hit. */
export const exa: SearchProvider = {
  id: "exa",
  order: 65,
  env: ["EXA_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.exa.ai",
  domainFilter: true,
  async search(req, call) {
    const body: Record<string, unknown> = {
      query: req.query,
      numResults: req.count,
      contents: { text: { maxCharacters: 500 } },
    };
    if (req.date_after) body.startPublishedDate = req.date_after;
    if (req.date_before) body.endPublishedDate = req.date_before;
    if (req.domain_filter) body.includeDomains = req.domain_filter;
    const data = await json(
      call,
      `${call.baseUrl.replace(/\/$/, "")}/search`,
      { method: "POST", headers: { "x-api-key": call.apiKey!, "content-type": "application/json" }, body },
      "Exa",
      ExaResponse,
    );
    return {
      kind: "results",
      results: data.results.map((r) => ({
        title: r.title ?? "",
        url: r.url ?? "",
        description: r.highlights?.join(" … ") || r.summary || r.text || "",
        ...(r.publishedDate ? { published: r.publishedDate } : {}),
        ...(hostOf(r.url ?? "") ? { siteName: hostOf(r.url ?? "")! } : {}),
      })),
    };
  },
};
