import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { duckduckgo } from "../src/search/providers/duckduckgo.js";
import { http, wireFake } from "./search-wire-fake.js";

// DuckDuckGo's keyless HTML endpoint: the search form POSTs to /html/ as
// application/x-www-form-urlencoded with the query in `q`; the answer is a page whose results
// list (#links) holds one .result per hit, its a.result__a pointing through the /l/?uddg= redirect.
const htmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const page = (results: string) =>
  `<!DOCTYPE html><html><head><title>conformance at DuckDuckGo</title></head><body><div class="serp__results"><div id="links" class="results">${results}</div></div></body></html>`;
// the hit markup by default; a test may swap in another page of DuckDuckGo's (reset restores it)
let answer: (() => string) | undefined;
const hitsPage = () =>
  page(
    SEARCH_CONFORMANCE_HITS.map(
      (h) =>
        `<div class="result results_links results_links_deep web-result"><div class="links_main links_deep result__body"><h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(h.url)}&amp;rut=conformance">${htmlText(h.title)}</a></h2><a class="result__snippet" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(h.url)}">${htmlText(h.description)}</a></div></div>`,
    ).join(""),
  );
const api = await wireFake({
  method: "POST",
  path: "/html/",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  apiKey: "",
  query(req) {
    const q = new URLSearchParams(req.body).get("q");
    return q === null ? "form field q is missing" : { query: q };
  },
  hits: () => ({ contentType: "text/html; charset=UTF-8", body: (answer ?? hitsPage)() }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke DuckDuckGo's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    answer = undefined;
    return { provider: duckduckgo, call: { baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "duckduckgo search provider conformance" },
);

describe("duckduckgo conformance fake", () => {
  it("answers a request that is not the search form 400", async () => {
    api.reset();
    await expect(http(`${api.url}/html/?q=get`, { method: "GET" })).resolves.toMatchObject({ status: 400 });
    expect(api.takeMismatches()).toEqual(["method GET, expected POST"]);
  });

  it("a results page saying there are no results is an empty list, not an error", async () => {
    api.reset();
    answer = () => page(`<div class="result results_links"><div class="no-results">No results.</div></div>`);
    const payload = await duckduckgo.search(
      { query: "nothing matches", count: 3 },
      { baseUrl: api.url, http },
    );
    expect(payload).toEqual({ kind: "results", results: [] });
    expect(api.side.received()).toEqual(["nothing matches"]);
    answer = undefined;
  });

  it("a page that is not DuckDuckGo's results list (a bot check) rejects naming DuckDuckGo", async () => {
    api.reset();
    answer = () =>
      `<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>`;
    await expect(
      duckduckgo.search({ query: "blocked", count: 3 }, { baseUrl: api.url, http }),
    ).rejects.toThrow(/DuckDuckGo search returned a page without its results list/);
    answer = undefined;
  });
});
