import type { ServerResponse } from "node:http";
import {
  SEARCH_CONFORMANCE_HITS,
  type SearchFarSideMode,
  searchProviderConformance,
} from "@clawtools/testing";
import { brave } from "../src/search/providers/brave.js";
import { searxng } from "../src/search/providers/searxng.js";
import { serve } from "./server.js";

// Each provider against a loopback server speaking its documented wire format. The transport is
// a plain fetch: the seam hands the provider its HTTP client, so the suite tests the provider.
const http = async (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
) => {
  const body =
    init.body === undefined || typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    body: body as string,
  });
  return { status: res.status, text: await res.text() };
};

async function farSide(apiKey: string, encode: (url: URL, headers: Record<string, unknown>) => unknown) {
  let mode: SearchFarSideMode = "hits";
  const queries: string[] = [];
  const answer = (res: ServerResponse, status: number, text: string) =>
    res.writeHead(status, { "content-type": "application/json" }).end(text);
  const server = await serve((req, res) => {
    const url = new URL(req.url, "http://fake");
    queries.push(url.searchParams.get("q") ?? "");
    if (mode === "status500") return answer(res, 500, JSON.stringify({ error: `bad key ${apiKey}` }));
    if (mode === "not-json") return answer(res, 200, "<html>not json</html>");
    const body = encode(url, req.headers);
    if (body === undefined) return answer(res, 400, JSON.stringify({ error: "wire format" }));
    answer(res, 200, JSON.stringify(body));
  });
  return {
    url: server.url,
    side: {
      received: () => queries,
      respondWith: (m: SearchFarSideMode) => {
        mode = m;
      },
    },
  };
}

searchProviderConformance(
  async () => {
    const apiKey = "brave-conformance-key-123456";
    const api = await farSide(apiKey, (url, headers) =>
      url.pathname === "/res/v1/web/search" && headers["x-subscription-token"] === apiKey
        ? { web: { results: SEARCH_CONFORMANCE_HITS.map((h) => ({ ...h })) } }
        : undefined,
    );
    return { provider: brave, call: { apiKey, baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "brave search provider conformance" },
);

searchProviderConformance(
  async () => {
    const api = await farSide("", (url) =>
      url.pathname === "/search" && url.searchParams.get("format") === "json"
        ? {
            results: SEARCH_CONFORMANCE_HITS.map((h) => ({
              title: h.title,
              url: h.url,
              content: h.description,
            })),
          }
        : undefined,
    );
    return { provider: searxng, call: { baseUrl: api.url, http }, farSide: api.side };
  },
  { name: "searxng search provider conformance" },
);
