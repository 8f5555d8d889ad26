import { afterAll, describe, expect, it } from "vitest";
import { createWebhookChannel, signWebhook } from "../src/channels/webhook.js";
import { fakeServer, reply } from "./fake-server.js";

const request = (idempotencyKey: string) =>
  ({ action: "send", to: "room", text: "hi", idempotencyKey }) as Parameters<
    ReturnType<typeof createWebhookChannel>["execute"]
  >[0];

describe("webhook retries through core's HTTP client", async () => {
  let plan: Array<(res: import("node:http").ServerResponse) => void> = [];
  const server = await fakeServer((_req, res) => (plan.shift() ?? ((r) => reply(r, 200, { id: "ok" })))(res));
  afterAll(() => server.close());
  // a first backoff of a minute never ends inside a test: an answer proves Retry-After set the wait
  const channel = (retries = 3) =>
    createWebhookChannel({
      url: `${server.base}/hook`,
      secret: "webhook-signing-secret",
      allowPrivateNetwork: true,
      retries,
      retryDelayMs: 60_000,
      mediaMaxBytes: 1024,
    });

  it("waits what a 429's Retry-After asks, not the backoff, and re-signs each attempt", async () => {
    plan = [(res) => res.writeHead(429, { "retry-after": "0" }).end()];
    const before = server.requests.length;
    const result = await channel().execute(request("r-1"));
    expect(result).toMatchObject({ messageId: "ok", attempts: 2, status: 200 });
    for (const sent of server.requests.slice(before)) {
      expect(sent.headers["idempotency-key"]).toBe("r-1");
      const ts = String(sent.headers["x-clawtools-timestamp"]);
      expect(sent.headers["x-clawtools-signature"]).toBe(
        signWebhook("webhook-signing-secret", ts, sent.raw.toString()),
      );
    }
  });

  it("fails at once on a 400, and gives up after its retries on 5xx", async () => {
    plan = [(res) => reply(res, 400, { error: "bad" })];
    await expect(channel().execute(request("r-2"))).rejects.toThrow(
      'webhook API error (400): HTTP 400: {"error":"bad"}',
    );
    plan = [0, 1].map(() => (res) => res.writeHead(503, { "retry-after": "0" }).end("down"));
    await expect(channel(1).execute(request("r-3"))).rejects.toThrow(
      "webhook API error (0): gave up after 2 attempts: HTTP 503: down",
    );
  });

  it("stops when aborted during a wait", async () => {
    plan = [(res) => reply(res, 500)];
    const controller = new AbortController();
    const pending = channel().execute(request("r-4"), controller.signal);
    // the send has reached the receiver: the abort lands in the request or in the minute-long
    // backoff after its 500; either way the call ends now, not after the wait
    while (!server.requests.some((r) => r.headers["idempotency-key"] === "r-4"))
      await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});
