import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder, isEmbeddingHttpError } from "../src/index.js";
import { details, memoryTools, workspace } from "./helpers.js";

type Handler = (input: string[], res: ServerResponse, req: IncomingMessage) => void;

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A loopback server speaking OpenAI's POST /embeddings, answering with `handler` per request. */
async function embeddingsServer(handler: Handler): Promise<{ baseUrl: string; requests: number }> {
  const state = { baseUrl: "", requests: 0 };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      state.requests++;
      handler((JSON.parse(body) as { input: string[] }).input, res, req);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

const vectors = (input: string[]) =>
  input.map((text, index) => ({
    index,
    embedding: Array.from({ length: 8 }, (_, i) => (text.length % (i + 2)) + 1),
  }));
const ok = (res: ServerResponse, body: unknown) =>
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
const fast = { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 };

describe("OpenAI-compatible embeddings", () => {
  it("retries 429 and 5xx with backoff, then succeeds", async () => {
    const statuses = [429, 503, 500];
    const srv = await embeddingsServer((input, res) => {
      const status = statuses.shift();
      if (status) res.writeHead(status).end("slow down");
      else ok(res, { data: vectors(input) });
    });
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: srv.baseUrl, dims: 8, retry: fast });
    const out = await embedder.embed(["alpha", "beta"]);
    expect(out).toHaveLength(2);
    expect(srv.requests).toBe(4);
  });

  it("gives up after the retries, with the last status", async () => {
    const srv = await embeddingsServer((_input, res) => res.writeHead(429).end("quota exceeded"));
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: srv.baseUrl, dims: 8, retry: fast });
    await expect(embedder.embed(["alpha"])).rejects.toThrow("Embedding request failed (429): quota exceeded");
    expect(srv.requests).toBe(4);
  });

  it("does not retry other client errors", async () => {
    const srv = await embeddingsServer((_input, res) => res.writeHead(401).end("bad key"));
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: srv.baseUrl, dims: 8, retry: fast });
    await expect(embedder.embed(["alpha"])).rejects.toThrow("Embedding request failed (401): bad key");
    expect(srv.requests).toBe(1);
  });

  it("a 429's Retry-After is honoured instead of the backoff", async () => {
    let first = true;
    const srv = await embeddingsServer((input, res) => {
      if (first) {
        first = false;
        res.writeHead(429, { "retry-after": "0" }).end("slow down");
      } else ok(res, { data: vectors(input) });
    });
    // a backoff of ten minutes would outlast the test: only the Retry-After of 0 s lets it pass
    const embedder = createOpenAICompatibleEmbedder({
      baseUrl: srv.baseUrl,
      dims: 8,
      retry: { retries: 1, minTimeoutMs: 600_000, maxTimeoutMs: 600_000 },
    });
    expect(await embedder.embed(["alpha"])).toHaveLength(1);
    expect(srv.requests).toBe(2);
  });

  it("a body that is not JSON is a clear error, not retried", async () => {
    const srv = await embeddingsServer((_input, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end("<html>gateway</html>"),
    );
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: srv.baseUrl, dims: 8, retry: fast });
    await expect(embedder.embed(["alpha"])).rejects.toThrow(
      `Embedding response from ${srv.baseUrl}/embeddings is not JSON`,
    );
    expect(srv.requests).toBe(1);
  });

  it("the API key never appears in an error, even when the server echoes it", async () => {
    const key = "sk-test-secret-0123456789";
    const srv = await embeddingsServer((_input, res, req) =>
      res.writeHead(401).end(`invalid key: ${req.headers.authorization}`),
    );
    const embedder = createOpenAICompatibleEmbedder({
      baseUrl: srv.baseUrl,
      dims: 8,
      apiKey: key,
      retry: fast,
    });
    const error = await embedder.embed(["alpha"]).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^Embedding request failed \(401\): invalid key: /);
    expect(error?.message).not.toContain(key);
    expect(isEmbeddingHttpError(error)).toBe(true);
    expect(error).toMatchObject({ status: 401 });
    expect(JSON.stringify(error?.cause ?? null)).not.toContain(key);
    expect(String((error?.cause as Error | undefined)?.message)).not.toContain(key);

    // no answer at all: the network error names the endpoint, never the key
    const closed = createOpenAICompatibleEmbedder({
      baseUrl: "http://127.0.0.1:1/v1",
      dims: 8,
      apiKey: key,
      retry: { retries: 0 },
    });
    const down = await closed.embed(["alpha"]).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(down?.message).toContain("http://127.0.0.1:1/v1/embeddings");
    expect(down?.message).not.toContain(key);
  });

  it("a baseUrl that is not a URL is refused when the embedder is made", () => {
    expect(() => createOpenAICompatibleEmbedder({ baseUrl: "not a url", dims: 8 })).toThrow(
      "memory embeddings baseUrl is not a valid URL",
    );
  });

  it("a changed upstream response shape is a clear error, not silent undefineds", async () => {
    const srv = await embeddingsServer((input, res) => ok(res, { embeddings: input.map(() => [0.1, 0.2]) }));
    const embedder = createOpenAICompatibleEmbedder({ baseUrl: srv.baseUrl, dims: 8, retry: fast });
    await expect(embedder.embed(["alpha"])).rejects.toThrow(
      `Embedding response from ${srv.baseUrl}/embeddings does not have OpenAI's embeddings shape:\n  - data: `,
    );
    const wrongType = await embeddingsServer((_input, res) => ok(res, { data: [{ embedding: "0.1,0.2" }] }));
    const second = createOpenAICompatibleEmbedder({ baseUrl: wrongType.baseUrl, dims: 8, retry: fast });
    await expect(second.embed(["alpha"])).rejects.toThrow("  - data.0.embedding: ");
  });

  it("is chosen by config.memory.search, and memory_search falls back to keywords when it fails", async () => {
    let fail = false;
    const srv = await embeddingsServer((input, res, req) => {
      expect(req.headers.authorization).toBe("Bearer k");
      expect(req.headers["x-team"]).toBe("memory");
      if (fail) res.writeHead(400).end("model not found");
      else ok(res, { data: vectors(input) });
    });
    const ws = workspace({ "memory/a.md": "Grace maintains the invoicing exporter.\n" });
    const { search } = memoryTools(
      ws,
      {},
      {
        config: {
          memory: {
            search: {
              provider: "openai",
              model: "tiny-embed",
              outputDimensionality: 8,
              remote: { baseUrl: srv.baseUrl, apiKey: "k", headers: { "x-team": "memory" } },
            },
          },
        },
      },
    );
    const good = details(await search.execute("1", { query: "invoicing exporter", minScore: 0 }));
    expect(good).toMatchObject({ provider: "openai-compatible", model: "tiny-embed", mode: "hybrid" });
    fail = true;
    const fell = details(await search.execute("2", { query: "invoicing exporter" }));
    expect(fell.mode).toBe("keyword");
    expect(fell.fallback).toEqual({
      from: "openai-compatible",
      to: "keyword",
      reason: "Embedding request failed (400): model not found",
    });
    expect(fell.warning).toBe(
      "Embedding provider openai-compatible failed (Embedding request failed (400): model not found); results come from keyword search only.",
    );
    expect(fell.results[0].path).toBe("memory/a.md");
  });
});

describe("the environment's OpenAI key", () => {
  it("goes only to OpenAI's endpoint: another configured base URL gets no key unless the config names one", async () => {
    const seen: Array<string | undefined> = [];
    const srv = await embeddingsServer((input, res, req) => {
      seen.push(req.headers.authorization);
      ok(res, { data: vectors(input) });
    });
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-env-key-for-openai-only";
    try {
      const ws = workspace({ "memory/a.md": "Grace maintains the invoicing exporter.\n" });
      const { search } = memoryTools(
        ws,
        {},
        {
          config: {
            memory: {
              search: {
                provider: "openai",
                model: "tiny-embed",
                outputDimensionality: 8,
                remote: { baseUrl: srv.baseUrl },
              },
            },
          },
        },
      );
      const result = details(await search.execute("1", { query: "invoicing exporter", minScore: 0 }));
      expect(result.mode).toBe("hybrid");
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((header) => header === undefined)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});
