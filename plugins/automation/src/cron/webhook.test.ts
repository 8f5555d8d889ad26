import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { CronExecutor } from "./executor.js";
import { systemClock } from "./interfaces.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

type Answer = { status: number; headers?: Record<string, string> };

/** A loopback receiver answering each POST with the next of `answers` (then 200), recording what came. */
async function receiver(answers: Answer[]) {
  const received: Array<{ key: string | undefined; body: Record<string, unknown> }> = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    received.push({ key: req.headers["idempotency-key"] as string | undefined, body: JSON.parse(text) });
    const answer = answers.shift() ?? { status: 200 };
    res.writeHead(answer.status, answer.headers ?? {});
    res.end("answer body");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, url: `${origin}/hooks/s3cr3t-token?sig=abc`, received };
}

function executor(retryDelayMs: number, attempts = 3) {
  return new CronExecutor({
    defaultAgentId: "main",
    clock: systemClock,
    webhookPolicy: { allowPrivateNetwork: true },
    webhookRetryDelayMs: retryDelayMs,
    webhookAttempts: attempts,
  });
}

const body = { jobId: "nightly", runAtMs: 1_700_000_000_000, status: "ok" };

describe("webhook delivery through core's HTTP helper", () => {
  it("a 429 with Retry-After: 0 is retried at once, not after the (10 minute) backoff", async () => {
    const { url, received } = await receiver([{ status: 429, headers: { "retry-after": "0" } }]);
    await executor(600_000).postWebhook(url, body);
    expect(received).toHaveLength(2);
    expect(received[1]?.body).toEqual(body);
  });

  it("a 503 with Retry-After: 0 is retried at once too; every attempt carries the same idempotency key", async () => {
    const { url, received } = await receiver([
      { status: 503, headers: { "retry-after": "0" } },
      { status: 502, headers: { "retry-after": "0" } },
    ]);
    await executor(600_000).postWebhook(url, body);
    expect(received.map((r) => r.key)).toEqual(Array(3).fill("cron:nightly:1700000000000"));
  });

  it("5xx on every attempt: fails after the configured attempts, naming the origin only (no path, no query)", async () => {
    const { origin, url, received } = await receiver([{ status: 500 }, { status: 500 }, { status: 500 }]);
    const error = await executor(5)
      .postWebhook(url, body)
      .catch((e: Error) => e);
    expect(received).toHaveLength(3);
    expect((error as Error).message).toBe(`webhook ${origin} answered HTTP 500 (3 attempts)`);
    expect((error as Error).message).not.toContain("s3cr3t");
  });

  it("a 400 is not retried, whatever its Retry-After", async () => {
    const { origin, url, received } = await receiver([{ status: 400, headers: { "retry-after": "0" } }]);
    await expect(executor(5).postWebhook(url, body)).rejects.toThrow(`webhook ${origin} answered HTTP 400`);
    expect(received).toHaveLength(1);
  });

  it("a receiver that is not there: a network error after the attempts, secret-free", async () => {
    const { url } = await receiver([]);
    const closed = servers.pop() as Server;
    await new Promise((resolve) => closed.close(resolve));
    const error = (await executor(5, 2)
      .postWebhook(url, body)
      .catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/request failed/);
    expect(error.message).not.toContain("s3cr3t");
  });

  it("a delivery.to that is not a URL is refused before anything is sent", async () => {
    await expect(executor(5).postWebhook("not a url", body)).rejects.toThrow(
      "webhook delivery.to is not a valid URL",
    );
  });
});
