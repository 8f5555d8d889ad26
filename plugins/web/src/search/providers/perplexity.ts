import { json, type SearchProvider } from "../types.js";

interface ChatResponse {
  choices?: Array<{
    message?: { content?: string; annotations?: Array<{ type?: string; url_citation?: { url?: string } }> };
  }>;
  citations?: string[];
  search_results?: Array<{ url?: string }>;
}

/**
 * Perplexity Sonar through its own API (`pplx-` keys, https://api.perplexity.ai) or through
 * OpenRouter (`sk-or-` keys, https://openrouter.ai/api/v1): OpenAI-style chat completions.
 */
export const perplexity: SearchProvider = {
  id: "perplexity",
  order: 50,
  env: ["PERPLEXITY_API_KEY", "OPENROUTER_API_KEY"],
  needsKey: true,
  defaultBaseUrl: "https://api.perplexity.ai",
  async search(req, call) {
    const viaOpenRouter = call.apiKey?.startsWith("sk-or-") && call.baseUrl === perplexity.defaultBaseUrl;
    const base = viaOpenRouter ? "https://openrouter.ai/api/v1" : call.baseUrl;
    const data = await json<ChatResponse>(
      call,
      `${base.replace(/\/$/, "")}/chat/completions`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${call.apiKey}`, "content-type": "application/json" },
        body: {
          model: viaOpenRouter || call.apiKey?.startsWith("sk-or-") ? "perplexity/sonar-pro" : "sonar-pro",
          messages: [{ role: "user", content: req.query }],
        },
      },
      "Perplexity",
    );
    const message = data.choices?.[0]?.message;
    const citations = [
      ...(data.citations ?? []),
      ...(data.search_results ?? []).map((r) => r.url ?? ""),
      ...(message?.annotations ?? []).map((a) => a.url_citation?.url ?? ""),
    ].filter(Boolean);
    return { kind: "answer", content: message?.content ?? "", citations: [...new Set(citations)] };
  },
};
