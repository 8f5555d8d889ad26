import { hostOf, json, type SearchProvider } from "../types.js";

interface ExaResponse {
  results?: Array<{
    title?: string;
    url?: string;
    publishedDate?: string;
    text?: string;
    highlights?: string[];
    summary?: string;
  }>;
}

/** Exa: POST /search with x-api-key, asking for a text excerpt of each hit. */
export const exa: SearchProvider = {
  id: "exa",
  order: 65,
  env: ["EXA_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.exa.ai",
  async search(req, call) {
    const body: Record<string, unknown> = {
      query: req.query,
      numResults: req.count,
      contents: { text: { maxCharacters: 500 } },
    };
    if (req.date_after) body.startPublishedDate = req.date_after;
    if (req.date_before) body.endPublishedDate = req.date_before;
    const data = await json<ExaResponse>(
      call,
      `${call.baseUrl.replace(/\/$/, "")}/search`,
      { method: "POST", headers: { "x-api-key": call.apiKey!, "content-type": "application/json" }, body },
      "Exa",
    );
    return {
      kind: "results",
      results: (data.results ?? []).map((r) => ({
        title: r.title ?? "",
        url: r.url ?? "",
        description: r.highlights?.join(" … ") || r.summary || r.text || "",
        ...(r.publishedDate ? { published: r.publishedDate } : {}),
        ...(hostOf(r.url ?? "") ? { siteName: hostOf(r.url ?? "")! } : {}),
      })),
    };
  },
};
