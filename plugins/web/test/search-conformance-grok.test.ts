import { SEARCH_CONFORMANCE_HITS, searchProviderConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { grok } from "../src/search/providers/grok.js";
import { http, jsonBody, wireFake } from "./search-wire-fake.js";

// xAI's Responses API: POST /v1/responses with `Authorization: Bearer xai-…`, a model, the query
// as a user input message and the web_search tool; the answer is the message item's output_text,
// sources in url_citation annotations and the response's citations[].
const apiKey = "xai-conformance-key-123456";
const api = await wireFake({
  method: "POST",
  path: "/v1/responses",
  headers: { authorization: `Bearer ${apiKey}` },
  apiKey,
  query(req) {
    const body = jsonBody(req);
    if (typeof body === "string") return body;
    if (typeof body.model !== "string" || body.model === "") return "body.model is missing";
    const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
    if (!tools.some((t) => t.type === "web_search")) return "body.tools lacks web_search";
    const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
    const last = input.at(-1);
    if (last?.role !== "user" || typeof last.content !== "string")
      return "last input is not the user's query";
    return { query: last.content };
  },
  hits: () => ({
    contentType: "application/json",
    body: JSON.stringify({
      id: "resp_conformance",
      object: "response",
      model: "grok-4-1-fast",
      status: "completed",
      output: [
        { type: "web_search_call", id: "ws_1", status: "completed" },
        {
          type: "message",
          role: "assistant",
          content: [
            {
              type: "output_text",
              text: "Conformance answer.",
              annotations: SEARCH_CONFORMANCE_HITS.map((h) => ({
                type: "url_citation",
                url: h.url,
                title: h.title,
                start_index: 0,
                end_index: 10,
              })),
            },
          ],
        },
      ],
      citations: SEARCH_CONFORMANCE_HITS.map((h) => h.url),
    }),
  }),
});

afterEach(() => {
  expect(api.takeMismatches(), "requests that broke xAI's wire format").toEqual([]);
});

searchProviderConformance(
  () => {
    api.reset();
    return { provider: grok, call: { apiKey, baseUrl: `${api.url}/v1`, http }, farSide: api.side };
  },
  { name: "grok search provider conformance" },
);

describe("grok conformance fake", () => {
  it("answers a request with the wrong key 400, naming the problem", async () => {
    api.reset();
    const call = { apiKey: "xai-wrong", baseUrl: `${api.url}/v1`, http };
    await expect(grok.search({ query: "q", count: 3 }, call)).rejects.toThrow(/400.*header authorization/);
    expect(api.takeMismatches()).toEqual(['header authorization is "Bearer xai-wrong"']);
  });
});
