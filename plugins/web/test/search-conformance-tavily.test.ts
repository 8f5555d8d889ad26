import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { tavily } from "../src/search/providers/tavily.js";
import { http, isCount, jsonBody, wireFake } from "./search-wire-fake.js";

// Tavily's documented search call: POST /search, `Authorization: Bearer tvly-…`, JSON body with
// query, max_results and search_depth; hits come back under results[] with title, url, content.
const apiKey = "tvly-conformance-key-123456";
const api = await wireFake({
  method: "POST",
  path: "/search",
  headers: { authorization: `Bearer ${apiKey}` },
  apiKey,
  query(req) {
    const body = jsonBody(req);
    if (typeof body === "string") return body;
    if (typeof body.query !== "string") return "body.query is not a string";
    if (!isCount(body.max_results)) return "body.max_results is not a result count";
    if (body.search_depth !== "basic" && body.search_depth !== "advanced")
      return "body.search_depth is not basic/advanced";
    return { query: body.query };
  },
  hits: () => ({
    contentType: "application/json",
    body: JSON.stringify({
      query: "conformance",
      answer: null,
      images: [],
      results: SEARCH_CONFORMANCE_HITS.map((h, i) => ({
        title: h.title,
        url: h.url,
        content: h.description,
        score: 1 - i / 10,
        raw_content: null,
      })),
      response_time: 0.5,
    }),
  }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke Tavily's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    return { provider: tavily, call: { apiKey, baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "tavily search provider conformance" },
);

describe("tavily conformance fake", () => {
  it("answers a request with the wrong key 400, naming the problem", async () => {
    api.reset();
    const call = { apiKey: "tvly-wrong", baseUrl: api.url, http };
    await expect(tavily.search({ query: "q", count: 3 }, call)).rejects.toThrow(/400.*header authorization/);
    expect(api.takeMismatches()).toEqual(['header authorization is "Bearer tvly-wrong"']);
  });
});
