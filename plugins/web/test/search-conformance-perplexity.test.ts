import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { perplexity } from "../src/search/providers/perplexity.js";
import { http, jsonBody, wireFake } from "./search-wire-fake.js";

// Perplexity's Sonar API: OpenAI-style POST /chat/completions with `Authorization: Bearer pplx-…`,
// a Sonar model and the query as the user message; the answer is choices[0].message.content with
// the sources in citations[] and search_results[].
const apiKey = "pplx-conformance-key-123456";
const api = await wireFake({
  method: "POST",
  path: "/chat/completions",
  headers: { authorization: `Bearer ${apiKey}` },
  apiKey,
  query(req) {
    const body = jsonBody(req);
    if (typeof body === "string") return body;
    if (typeof body.model !== "string" || !body.model.startsWith("sonar"))
      return "body.model is not a Sonar model";
    const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
    const last = messages.at(-1);
    if (last?.role !== "user" || typeof last.content !== "string")
      return "last message is not the user's query";
    return { query: last.content };
  },
  hits: () => ({
    contentType: "application/json",
    body: JSON.stringify({
      id: "conformance",
      model: "sonar-pro",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          message: { role: "assistant", content: "Conformance answer [1][2][3]." },
        },
      ],
      citations: SEARCH_CONFORMANCE_HITS.map((h) => h.url),
      search_results: SEARCH_CONFORMANCE_HITS.map((h) => ({ title: h.title, url: h.url })),
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    }),
  }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke Perplexity's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    return { provider: perplexity, call: { apiKey, baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "perplexity search provider conformance" },
);

describe("perplexity conformance fake", () => {
  it("answers a request with the wrong key 400, naming the problem", async () => {
    api.reset();
    const call = { apiKey: "pplx-wrong", baseUrl: api.url, http };
    await expect(perplexity.search({ query: "q", count: 3 }, call)).rejects.toThrow(
      /400.*header authorization/,
    );
    expect(api.takeMismatches()).toEqual(['header authorization is "Bearer pplx-wrong"']);
  });
});
