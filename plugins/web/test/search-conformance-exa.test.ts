import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { exa } from "../src/search/providers/exa.js";
import { http, isCount, jsonBody, wireFake } from "./search-wire-fake.js";

// Exa's documented search call: POST /search, key in x-api-key, JSON body with query and
// numResults; hits come back under results[] with title, url and the requested text excerpt.
const apiKey = "exa-conformance-key-123456";
const api = await wireFake({
  method: "POST",
  path: "/search",
  headers: { "x-api-key": apiKey },
  apiKey,
  query(req) {
    const body = jsonBody(req);
    if (typeof body === "string") return body;
    if (typeof body.query !== "string") return "body.query is not a string";
    if (!isCount(body.numResults)) return "body.numResults is not a result count";
    return { query: body.query };
  },
  hits: () => ({
    contentType: "application/json",
    body: JSON.stringify({
      requestId: "conformance",
      results: SEARCH_CONFORMANCE_HITS.map((h, i) => ({
        id: h.url,
        title: h.title,
        url: h.url,
        publishedDate: null,
        author: null,
        score: 1 - i / 10,
        text: h.description,
      })),
    }),
  }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke Exa's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    return { provider: exa, call: { apiKey, baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "exa search provider conformance" },
);

describe("exa conformance fake", () => {
  it("answers a request with the wrong key 400, naming the problem", async () => {
    api.reset();
    const call = { apiKey: "exa-wrong-key", baseUrl: api.url, http };
    await expect(exa.search({ query: "q", count: 3 }, call)).rejects.toThrow(/400.*header x-api-key/);
    expect(api.takeMismatches()).toEqual(['header x-api-key is "exa-wrong-key"']);
  });
});
