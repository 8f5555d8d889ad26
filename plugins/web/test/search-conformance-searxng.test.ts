import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { searxng } from "../src/search/providers/searxng.js";
import { http, wireFake } from "./search-wire-fake.js";

// SearXNG's search API (keyless, self-hosted): GET /search?q=…&format=json; hits come back under
// results[] with title, url and content.
const api = await wireFake({
  method: "GET",
  path: "/search",
  headers: {},
  apiKey: "",
  query(req) {
    const params = new URL(req.url, "http://fake").searchParams;
    const q = params.get("q");
    if (q === null) return "query parameter q is missing";
    if (params.get("format") !== "json") return "query parameter format is not json";
    return { query: q };
  },
  hits: () => ({
    contentType: "application/json",
    body: JSON.stringify({
      query: "conformance",
      number_of_results: SEARCH_CONFORMANCE_HITS.length,
      results: SEARCH_CONFORMANCE_HITS.map((h) => ({
        title: h.title,
        url: h.url,
        content: h.description,
        engine: "conformance",
      })),
    }),
  }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke SearXNG's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    return { provider: searxng, call: { baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "searxng search provider conformance" },
);

describe("searxng conformance fake", () => {
  it("answers a search without format=json 400, naming the problem", async () => {
    api.reset();
    await expect(http(`${api.url}/search?q=html`, {})).resolves.toMatchObject({ status: 400 });
    expect(api.takeMismatches()).toEqual(["query parameter format is not json"]);
  });
});
