import { createToolset } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { createWebPlugin, createWebSearchTool, resolveSearchProvider } from "../src/index.js";
import { serve } from "./server.js";

const details = (r: { details?: unknown }) => r.details as Record<string, any>;
const json = (body: unknown) => (_req: unknown, res: import("node:http").ServerResponse) =>
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

describe("web_search providers (loopback servers speaking each documented wire format)", () => {
  it("Brave: GET /res/v1/web/search with X-Subscription-Token; wrapped titles and descriptions", async () => {
    const server = await serve(
      json({
        web: {
          results: [
            {
              title: "Result <b>one</b>",
              url: "https://one.example/",
              description: "First hit",
              page_age: "2026-01-01",
              profile: { name: "One" },
            },
          ],
        },
      }),
    );
    const tool = createWebSearchTool(
      {},
      { provider: "brave", providers: { brave: { apiKey: "brave-key", baseUrl: server.url } } },
    );
    const r = details(
      await tool.execute("c", { query: "clawtools", count: 3, country: "DE", freshness: "week" }),
    );
    const req = server.requests[0]!;
    expect(req.url).toBe("/res/v1/web/search?q=clawtools&count=3&country=DE&freshness=pw");
    expect(req.headers["x-subscription-token"]).toBe("brave-key");
    expect(r).toMatchObject({
      query: "clawtools",
      provider: "brave",
      count: 1,
      externalContent: { untrusted: true, source: "web_search", provider: "brave", wrapped: true },
    });
    expect(r.results[0].url).toBe("https://one.example/");
    expect(r.results[0].title).toMatch(
      /^<<<EXTERNAL_UNTRUSTED_CONTENT id="[0-9a-f]{16}">>>\nSource: Web Search\n---\nResult <b>one<\/b>\n/,
    );
    expect(r.results[0]).toMatchObject({ published: "2026-01-01", siteName: "One" });
    const again = details(
      await tool.execute("c", { query: "CLAWTOOLS", count: 3, country: "DE", freshness: "week" }),
    );
    expect(again.cached).toBe(true);
  });

  it("Perplexity: chat completions with citations (direct key)", async () => {
    const server = await serve(
      json({
        choices: [{ message: { content: "Answer text" } }],
        citations: ["https://a.example", "https://b.example"],
      }),
    );
    const tool = createWebSearchTool(
      {},
      { provider: "perplexity", providers: { perplexity: { apiKey: "pplx-1", baseUrl: server.url } } },
    );
    const r = details(await tool.execute("c", { query: "q" }));
    const body = JSON.parse(server.requests[0]!.body);
    expect(server.requests[0]!.url).toBe("/chat/completions");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer pplx-1");
    expect(body).toEqual({ model: "sonar-pro", messages: [{ role: "user", content: "q" }] });
    expect(r.citations).toEqual(["https://a.example", "https://b.example"]);
    expect(r.content).toContain("Answer text");
    expect(r.content).toContain("Source: Web Search");
  });

  it("Grok: xAI Responses API with the web_search tool and url citations", async () => {
    const server = await serve(
      json({
        output: [
          {
            type: "message",
            content: [
              {
                type: "output_text",
                text: "Grok says",
                annotations: [{ type: "url_citation", url: "https://x.example" }],
              },
            ],
          },
        ],
      }),
    );
    const tool = createWebSearchTool(
      {},
      { provider: "grok", providers: { grok: { apiKey: "xai-1", baseUrl: server.url } } },
    );
    const r = details(await tool.execute("c", { query: "news" }));
    expect(server.requests[0]!.url).toBe("/responses");
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({
      model: "grok-4-1-fast",
      tools: [{ type: "web_search" }],
    });
    expect(r.citations).toEqual(["https://x.example"]);
    expect(r.content).toContain("Grok says");
  });

  it("Tavily, Exa and SearXNG: their request shapes and result lists", async () => {
    const tav = await serve(
      json({ results: [{ title: "T", url: "https://t.example/x", content: "tavily snippet" }] }),
    );
    const exa = await serve(
      json({
        results: [
          {
            title: "E",
            url: "https://e.example/",
            highlights: ["exa highlight"],
            publishedDate: "2025-05-05",
          },
        ],
      }),
    );
    const sx = await serve(
      json({
        results: [
          { title: "S1", url: "https://s.example/1", content: "c1" },
          { title: "S2", url: "https://s.example/2", content: "c2" },
        ],
      }),
    );
    const t = details(
      await createWebSearchTool(
        {},
        { provider: "tavily", providers: { tavily: { apiKey: "tvly-1", baseUrl: tav.url } } },
      ).execute("c", { query: "q", count: 2 }),
    );
    expect(tav.requests[0]!.headers.authorization).toBe("Bearer tvly-1");
    expect(JSON.parse(tav.requests[0]!.body)).toMatchObject({ query: "q", max_results: 2 });
    expect(t.results[0]).toMatchObject({ url: "https://t.example/x", siteName: "t.example" });
    const e = details(
      await createWebSearchTool(
        {},
        { provider: "exa", providers: { exa: { apiKey: "exa-1", baseUrl: exa.url } } },
      ).execute("c", { query: "q" }),
    );
    expect(exa.requests[0]!.headers["x-api-key"]).toBe("exa-1");
    expect(JSON.parse(exa.requests[0]!.body)).toMatchObject({ query: "q", numResults: 5 });
    expect(e.results[0].description).toContain("exa highlight");
    const s = details(
      await createWebSearchTool({}, { env: { SEARXNG_BASE_URL: sx.url } }).execute("c", {
        query: "q q",
        count: 1,
      }),
    );
    expect(sx.requests[0]!.url).toBe("/search?q=q+q&format=json");
    expect(s).toMatchObject({ provider: "searxng", count: 1 });
  });

  it("DuckDuckGo: keyless HTML endpoint parsed, redirect links unwrapped", async () => {
    const html = `<div class="result"><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fduck.example%2Fpage&rut=x">Duck page</a><a class="result__snippet">Quack snippet</a></div>`;
    const server = await serve((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
    const r = details(
      await createWebSearchTool(
        {},
        { provider: "duckduckgo", providers: { duckduckgo: { baseUrl: server.url } } },
      ).execute("c", { query: "duck" }),
    );
    expect(server.requests[0]).toMatchObject({ method: "POST", url: "/html/", body: "q=duck" });
    expect(r.results[0]).toMatchObject({ url: "https://duck.example/page" });
    expect(r.results[0].description).toContain("Quack snippet");
  });

  it("auto-detects in order, validates parameters, and is left out with guidance when nothing is configured", async () => {
    expect(resolveSearchProvider({}, { TAVILY_API_KEY: "t", BRAVE_API_KEY: "b" })).toMatchObject({
      provider: { id: "brave" },
      apiKey: "b",
    });
    expect(resolveSearchProvider({}, { OPENROUTER_API_KEY: "sk-or-1", EXA_API_KEY: "e" })).toMatchObject({
      provider: { id: "perplexity" },
    });
    const server = await serve(json({ web: { results: [] } }));
    const tool = createWebSearchTool(
      {},
      { providers: { brave: { apiKey: "k", baseUrl: server.url } }, env: {} },
    );
    await expect(
      tool.execute("c", { query: "q", freshness: "day", date_after: "2025-01-01" }),
    ).rejects.toThrow(/cannot be combined/);
    await expect(tool.execute("c", { query: "q", date_after: "yesterday" })).rejects.toThrow(
      "date_after must be YYYY-MM-DD",
    );
    await tool.execute("c", { query: "q", count: 50 });
    expect(server.requests[0]!.url).toContain("count=10");
    const set = createToolset({ plugins: [createWebPlugin({ search: { env: {} } })] });
    expect(set.tools.map((t) => t.name)).toEqual(["web_fetch"]);
    expect(set.diagnostics.map((d) => d.message).join("\n")).toContain(
      "web/web_search: no web search provider configured: set BRAVE_API_KEY",
    );
  });
});

describe("web_search: changed APIs, arguments and configuration", () => {
  it("a provider answer that no longer matches the documented shape is an error naming provider and field", async () => {
    const brave = await serve(json({ web: { results: [{ title: "T", link: "https://renamed.example/" }] } }));
    const tool = createWebSearchTool(
      {},
      { provider: "brave", providers: { brave: { apiKey: "k", baseUrl: brave.url } } },
    );
    await expect(tool.execute("c", { query: "q" })).rejects.toThrow(
      "Brave search returned an unexpected response (has its API changed?):\n  - web.results.0.url: is required",
    );
    const pplx = await serve(json({ choices: [{ message: { text: "moved" } }] }));
    const answer = createWebSearchTool(
      {},
      { provider: "perplexity", providers: { perplexity: { apiKey: "pplx-1", baseUrl: pplx.url } } },
    );
    await expect(answer.execute("c", { query: "q" })).rejects.toThrow(
      "Perplexity search returned an unexpected response (has its API changed?):\n  - choices.0.message.content: is required",
    );
    const tav = await serve(json({ items: [] }));
    const tavily = createWebSearchTool(
      {},
      { provider: "tavily", providers: { tavily: { apiKey: "t", baseUrl: tav.url } } },
    );
    await expect(tavily.execute("c", { query: "q" })).rejects.toThrow(
      "Tavily search returned an unexpected response (has its API changed?):\n  - results: is required",
    );
  });

  it("unknown arguments are errors naming them; domain_filter (OpenClaw 9.6) goes to the providers that take it", async () => {
    const server = await serve(json({ web: { results: [] } }));
    const set = createToolset({
      plugins: [
        createWebPlugin({ search: { providers: { brave: { apiKey: "k", baseUrl: server.url } }, env: {} } }),
      ],
    });
    const tool = set.tools.find((t) => t.name === "web_search")!;
    const bad = await tool.execute("c", { query: "q", max_tokens: 5, limit: 3 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("must not have additional properties (max_tokens, limit)");
    const unsupported = await tool.execute("c", { query: "q", domain_filter: ["a.example"] });
    expect(JSON.stringify(unsupported.content)).toContain(
      "domain_filter is not supported by the brave provider (perplexity, tavily and exa support it)",
    );
    expect(server.requests).toHaveLength(0);
    const tav = await serve(json({ results: [] }));
    await createWebSearchTool(
      {},
      { provider: "tavily", providers: { tavily: { apiKey: "t", baseUrl: tav.url } } },
    ).execute("c", { query: "q", domain_filter: ["docs.example"] });
    expect(JSON.parse(tav.requests[0]!.body)).toMatchObject({ include_domains: ["docs.example"] });
  });

  it("reads config.web.search (OpenClaw's tools.web.search names): provider, <provider>.apiKey and baseUrl", async () => {
    const server = await serve(json({ results: [{ title: "E", url: "https://e.example/" }] }));
    const set = createToolset({
      plugins: [createWebPlugin({ search: { env: { BRAVE_API_KEY: "ignored" } } })],
      context: {
        config: { web: { search: { provider: "exa", exa: { apiKey: "from-config", baseUrl: server.url } } } },
      },
    });
    const tool = set.tools.find((t) => t.name === "web_search")!;
    const r = await tool.execute("c", { query: "q" });
    expect((r.details as Record<string, unknown>).provider).toBe("exa");
    expect(server.requests[0]!.headers["x-api-key"]).toBe("from-config");
    expect(() =>
      createWebSearchTool({ config: { web: { search: { provider: "bing" } } } }, { env: {} }),
    ).toThrow("Invalid configuration for web:\n  - search.provider:");
    const off = createToolset({
      plugins: [createWebPlugin({ search: { env: { BRAVE_API_KEY: "k" } } })],
      context: { config: { web: { search: { enabled: false } } } },
    });
    expect(off.tools.map((t) => t.name)).toEqual(["web_fetch"]);
    expect(off.diagnostics.map((d) => d.message).join("\n")).toContain(
      "web/web_search: disabled by configuration (web.search.enabled: false)",
    );
  });
});
