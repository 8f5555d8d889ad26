import { Type } from "@clawtools/core";
import { json, type SearchProvider } from "../types.js";

const Str = Type.Optional(Type.String());
const ChatResponse = Type.Object({
  choices: Type.Array(
    Type.Object({
      message: Type.Object({
        content: Type.String(),
        annotations: Type.Optional(
          Type.Array(Type.Object({ type: Str, url_citation: Type.Optional(Type.Object({ url: Str })) })),
        ),
      }),
    }),
    { minItems: 1 },
  ),
  citations: Type.Optional(Type.Array(Type.String())),
  search_results: Type.Optional(Type.Array(Type.Object({ url: Str }))),
});

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
  domainFilter: true,
  async search(req, call) {
    const viaOpenRouter = call.apiKey?.startsWith("sk-or-") && call.baseUrl === perplexity.defaultBaseUrl;
    const base = viaOpenRouter ? "https://openrouter.ai/api/v1" : call.baseUrl;
    const data = await json(
      call,
      `${base.replace(/\/$/, "")}/chat/completions`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${call.apiKey}`, "content-type": "application/json" },
        body: {
          model: viaOpenRouter || call.apiKey?.startsWith("sk-or-") ? "perplexity/sonar-pro" : "sonar-pro",
          messages: [{ role: "user", content: req.query }],
          ...(req.domain_filter ? { search_domain_filter: req.domain_filter } : {}),
        },
      },
      "Perplexity",
      ChatResponse,
    );
    const message = data.choices[0]!.message;
    const citations = [
      ...(data.citations ?? []),
      ...(data.search_results ?? []).map((r) => r.url ?? ""),
      ...(message.annotations ?? []).map((a) => a.url_citation?.url ?? ""),
    ].filter(Boolean);
    return { kind: "answer", content: message.content, citations: [...new Set(citations)] };
  },
};
