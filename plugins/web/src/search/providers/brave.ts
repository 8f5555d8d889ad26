import { Type } from "@clawtools/core";
import { hostOf, json, type SearchProvider } from "../types.js";

const FRESHNESS = { day: "pd", week: "pw", month: "pm", year: "py" } as const;

const Str = Type.Optional(Type.String());
const BraveResponse = Type.Object({
  web: Type.Optional(
    Type.Object({
      results: Type.Array(
        Type.Object({
          title: Type.String(),
          url: Type.String(),
          description: Str,
          age: Str,
          page_age: Str,
          profile: Type.Optional(Type.Object({ name: Str })),
          meta_url: Type.Optional(Type.Object({ hostname: Str })),
        }),
      ),
    }),
  ),
});

/** Brave Search API: GET /res/v1/web/search with X-Subscription-Token. */
export const brave: SearchProvider = {
  id: "brave",
  order: 10,
  env: ["BRAVE_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.search.brave.com",
  async search(req, call) {
    const url = new URL("/res/v1/web/search", call.baseUrl);
    url.searchParams.set("q", req.query);
    url.searchParams.set("count", String(req.count));
    if (req.country) url.searchParams.set("country", req.country);
    if (req.search_lang ?? req.language)
      url.searchParams.set("search_lang", (req.search_lang ?? req.language)!);
    if (req.ui_lang) url.searchParams.set("ui_lang", req.ui_lang);
    if (req.freshness) url.searchParams.set("freshness", FRESHNESS[req.freshness]);
    else if (req.date_after || req.date_before) {
      url.searchParams.set(
        "freshness",
        `${req.date_after ?? "1970-01-01"}to${req.date_before ?? new Date().toISOString().slice(0, 10)}`,
      );
    }
    const data = await json(
      call,
      url.href,
      { headers: { accept: "application/json", "x-subscription-token": call.apiKey! } },
      "Brave",
      BraveResponse,
    );
    return {
      kind: "results",
      results: (data.web?.results ?? []).map((r) => ({
        title: r.title,
        url: r.url,
        description: r.description ?? "",
        ...(r.page_age || r.age ? { published: (r.page_age ?? r.age)! } : {}),
        ...(r.profile?.name || r.meta_url?.hostname || hostOf(r.url ?? "")
          ? { siteName: (r.profile?.name ?? r.meta_url?.hostname ?? hostOf(r.url ?? ""))! }
          : {}),
      })),
    };
  },
};
