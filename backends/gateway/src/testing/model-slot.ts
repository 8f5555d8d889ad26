import { createServer, request } from "node:http";

/**
 * A loopback port that stands in for a test's fake model in a shared Gateway's config: the
 * Gateway boots before the test that owns the model exists, so each request is passed on to
 * whichever model the Gateway's current lessee put in the slot (503 while none is).
 */
export interface ModelSlot {
  /** What the Gateway's `models.providers.<id>` names (ends in /v1). */
  baseUrl: string;
  apiKey: string;
  /** The model requests go to now (its baseUrl), or undefined. */
  fill(baseUrl: string | undefined): void;
  close(): Promise<void>;
}

export async function startModelSlot(apiKey = "fake-model-key"): Promise<ModelSlot> {
  let target: URL | undefined;
  const server = createServer((req, res) => {
    if (!target) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: "no test holds this model slot now", type: "unavailable" } }),
      );
      return;
    }
    const upstream = request(
      new URL(req.url ?? "/", target),
      { method: req.method, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // the Gateway hanging up (an abort) hangs up on the model too
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    fill: (baseUrl) => {
      target = baseUrl ? new URL(baseUrl) : undefined;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
