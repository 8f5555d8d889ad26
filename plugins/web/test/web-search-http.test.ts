import { describe, expect, it } from "vitest";
import { createWebSearchTool } from "../src/index.js";
import { serve } from "./server.js";

const brave = (url: string, apiKey = "brave-key-123456") =>
  createWebSearchTool({}, { provider: "brave", providers: { brave: { apiKey, baseUrl: url } } });

describe("web_search over core's HTTP client", () => {
  it("retries a 429 after the provider's Retry-After, then answers", async () => {
    let first = true;
    const server = await serve((_req, res) => {
      if (first) {
        first = false;
        return void res.writeHead(429, { "retry-after": "0" }).end("rate limited");
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"web":{"results":[]}}');
    });
    const result = await brave(server.url).execute("c", { query: "retry" });
    expect((result.details as { count: number }).count).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a 401, and takes the echoed key out of the error", async () => {
    const server = await serve((req, res) =>
      res.writeHead(401).end(`invalid token ${req.headers["x-subscription-token"]}`),
    );
    const error = (await brave(server.url, "echoed-key-987654")
      .execute("c", { query: "q" })
      .catch((e) => e)) as Error;
    expect(error.message).toBe("Brave search failed (401): invalid token [redacted]");
    expect(server.requests).toHaveLength(1);
  });
});
