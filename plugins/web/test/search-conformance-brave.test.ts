import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { brave } from "../src/search/providers/brave.js";
import { http, isCount, wireFake } from "./search-wire-fake.js";

// Brave's Web Search API: GET /res/v1/web/search?q=…&count=… with X-Subscription-Token; hits come
// back under web.results[] with title, url and description.
const apiKey = "brave-conformance-key-123456";
const api = await wireFake({
  method: "GET",
  path: "/res/v1/web/search",
  headers: { "x-subscription-token": apiKey },
  apiKey,
  query(req) {
    const params = new URL(req.url, "http://fake").searchParams;
    const q = params.get("q");
    if (q === null) return "query parameter q is missing";
    if (!isCount(Number(params.get("count")))) return "query parameter count is not a result count";
    return { query: q };
  },
  hits: () => ({
    contentType: "application/json",
    body: JSON.stringify({
      type: "search",
      query: { original: "conformance" },
      web: { type: "search", results: SEARCH_CONFORMANCE_HITS.map((h) => ({ type: "search_result", ...h })) },
    }),
  }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke Brave's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    return { provider: brave, call: { apiKey, baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "brave search provider conformance" },
);

describe("brave conformance fake", () => {
  it("answers a request with the wrong key 400, naming the problem", async () => {
    api.reset();
    const call = { apiKey: "brave-wrong", baseUrl: api.url, http };
    await expect(brave.search({ query: "q", count: 3 }, call)).rejects.toThrow(
      /400.*header x-subscription-token/,
    );
    expect(api.takeMismatches()).toEqual(['header x-subscription-token is "brave-wrong"']);
  });
});
