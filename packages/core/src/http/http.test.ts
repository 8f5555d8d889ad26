import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Type } from "@sinclair/typebox";
import { afterAll, describe, expect, it } from "vitest";
import { isSsrfBlockedError } from "../safety/url/policy.js";
import { registerSecret } from "../safety/redact.js";
import { HttpError, httpJson, httpRequest, isHttpError, parseRetryAfter } from "./index.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});
/** A real loopback server answering the nth request (0-based) with `handler`. */
async function serve(handler: (req: Received, res: ServerResponse, n: number) => void) {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      const received = { method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() };
      requests.push(received);
      handler(received, res, requests.length - 1);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
const answer = (res: ServerResponse, status: number, body = "", headers: Record<string, string> = {}) => {
  res.writeHead(status, headers);
  res.end(body);
};
// a backoff this long never ends inside a test: an answer proves something else set the wait
const NEVER = 600_000;

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("reads delta-seconds and HTTP-dates; a past date is 0; junk is undefined", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    for (const junk of [undefined, "", "-5", "1.5", "soon", "Fri, 99 Foo 2026"])
      expect(parseRetryAfter(junk, now)).toBeUndefined();
  });
});

describe("httpRequest retries", () => {
  it("honours Retry-After in seconds on a 429 (not the backoff)", async () => {
    const s = await serve((_r, res, n) =>
      n === 0 ? answer(res, 429, "slow down", { "retry-after": "1" }) : answer(res, 200, "ok"),
    );
    const res = await httpRequest(`${s.url}/a`, { retryDelayMs: NEVER, maxRetryDelayMs: NEVER });
    expect(res.text()).toBe("ok");
    expect(res.attempts).toBe(2);
    // a lower bound only: the second request came no sooner than the server asked
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it("honours Retry-After as an HTTP-date", async () => {
    const s = await serve((_r, res, n) =>
      n === 0
        ? answer(res, 429, "", { "retry-after": new Date(Date.now() - 5_000).toUTCString() })
        : answer(res, 200, "ok"),
    );
    const res = await httpRequest(s.url, { retryDelayMs: NEVER, maxRetryDelayMs: NEVER });
    expect(res.attempts).toBe(2);
  });

  it("does not start a Retry-After wait that would end past the deadline", async () => {
    const s = await serve((_r, res) => answer(res, 503, "down", { "retry-after": "3600" }));
    const error = await httpRequest(s.url, { maxRetryDelayMs: 7_200_000, deadlineMs: 60_000 }).catch(
      (e) => e,
    );
    expect(isHttpError(error)).toBe(true);
    expect(error).toMatchObject({ kind: "status", status: 503, attempts: 1 });
    expect(s.requests).toHaveLength(1);
  });

  it("retries a 503 with backoff, then succeeds", async () => {
    const s = await serve((_r, res, n) =>
      n === 0 ? answer(res, 503, "busy") : answer(res, 200, '{"ok":true}'),
    );
    const res = await httpRequest(s.url, { retryDelayMs: 5 });
    expect(res).toMatchObject({ status: 200, attempts: 2 });
  });

  it("does not retry a 400, and gives the status and an excerpt of the body", async () => {
    const s = await serve((_r, res) => answer(res, 400, `bad request: ${"x".repeat(1000)}`));
    const error = (await httpRequest(`${s.url}/path?q=1`, { retryDelayMs: 1 }).catch((e) => e)) as HttpError;
    expect(s.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(new RegExp(`^${s.url} answered HTTP 400: bad request: x+…$`));
    expect(error.bodyExcerpt!.length).toBeLessThanOrEqual(301);
  });

  it("retries a POST only when the caller says it is safe", async () => {
    const plain = await serve((_r, res) => answer(res, 503));
    await expect(httpRequest(plain.url, { method: "POST", body: "x", retryDelayMs: 1 })).rejects.toThrow(
      "HTTP 503",
    );
    expect(plain.requests).toHaveLength(1);
    const safe = await serve((_r, res, n) => answer(res, n === 0 ? 503 : 201));
    const res = await httpRequest(safe.url, {
      method: "POST",
      json: { a: 1 },
      idempotent: true,
      retryDelayMs: 1,
    });
    expect(res).toMatchObject({ status: 201, attempts: 2 });
    expect(safe.requests.map((r) => r.body)).toEqual(['{"a":1}', '{"a":1}']);
    expect(safe.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("retries network errors and names no URL path in the final error", async () => {
    const s = await serve(() => {});
    const dead = s.url.replace(/:\d+$/, ":1");
    const error = (await httpRequest(`${dead}/bot123456789:SECRET/x`, { retries: 1, retryDelayMs: 1 }).catch(
      (e) => e,
    )) as HttpError;
    expect(error).toMatchObject({ kind: "network", status: 0, attempts: 2 });
    expect(error.message).not.toContain("SECRET");
  });

  it("stops at once when aborted during a backoff wait", async () => {
    const controller = new AbortController();
    const s = await serve((_r, res) => answer(res, 503, "", { "retry-after": "3600" }));
    const pending = httpRequest(s.url, {
      maxRetryDelayMs: 7_200_000,
      signal: controller.signal,
      // called when the answer is in, before the wait: the abort lands in the wait
      retryOn: (status) => {
        setImmediate(() => controller.abort(new Error("caller gave up")));
        return status === 503;
      },
    });
    await expect(pending).rejects.toThrow("caller gave up");
    expect(s.requests).toHaveLength(1);
  });

  it("gives up on a silent endpoint as a timeout once the deadline leaves no room", async () => {
    const s = await serve(() => {}); // never answers
    const error = (await httpRequest(s.url, { timeoutMs: 200, deadlineMs: 300, retryDelayMs: 1 }).catch(
      (e) => e,
    )) as HttpError;
    expect(error).toMatchObject({ kind: "timeout", status: 0 });
    expect(error.message).toMatch(/no answer within \d+ ms/);
  });

  it("returns the answer instead of throwing when throwOnStatus is false", async () => {
    const s = await serve((_r, res) => answer(res, 404, "none"));
    const res = await httpRequest(s.url, { throwOnStatus: false });
    expect(res).toMatchObject({ status: 404, attempts: 1 });
    expect(res.text()).toBe("none");
  });

  it("sends FormData as multipart, the same bytes each attempt", async () => {
    const s = await serve((_r, res, n) => answer(res, n === 0 ? 502 : 200));
    const form = new FormData();
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "a.txt");
    await httpRequest(s.url, { method: "PUT", body: form, retryDelayMs: 1 });
    expect(s.requests[0]!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(s.requests[1]!.body).toBe(s.requests[0]!.body);
    expect(s.requests[0]!.body).toContain('filename="a.txt"');
  });
});

describe("httpRequest safety", () => {
  it("applies the URL policy when one is given", async () => {
    const s = await serve((_r, res) => answer(res, 200));
    const error = await httpRequest(s.url, { policy: {} }).catch((e) => e);
    expect(isSsrfBlockedError(error)).toBe(true);
    expect(s.requests).toHaveLength(0);
    await expect(httpRequest(s.url, { policy: { allowPrivateNetwork: true } })).resolves.toMatchObject({
      status: 200,
    });
  });

  it("takes an echoed key, a registered secret and the request's headers out of errors", async () => {
    const unregister = registerSecret("registered-secret-value");
    const s = await serve((req, res) =>
      answer(
        res,
        401,
        `bad key ${req.headers.authorization} ${req.headers["x-api-key"]} registered-secret-value`,
      ),
    );
    const error = (await httpRequest(`${s.url}/?api_key=query-secret-123`, {
      headers: { authorization: "Bearer sk-live-abcdef123456", "x-api-key": "xk-987654321" },
    }).catch((e) => e)) as HttpError;
    unregister();
    expect(error.status).toBe(401);
    for (const secret of [
      "sk-live-abcdef123456",
      "xk-987654321",
      "registered-secret-value",
      "query-secret-123",
    ]) {
      expect(error.message).not.toContain(secret);
      expect(error.bodyExcerpt).not.toContain(secret);
    }
    expect(error.message).toContain("[redacted]");
  });
});

describe("httpJson", () => {
  const Shape = Type.Object({ results: Type.Array(Type.Object({ title: Type.String() })) });
  it("returns the checked body", async () => {
    const s = await serve((_r, res) => answer(res, 200, '{"results":[{"title":"a"}]}'));
    const data = await httpJson(s.url, { schema: Shape, label: "Example API" });
    expect(data.results[0]!.title).toBe("a");
    expect(s.requests[0]!.headers.accept).toBe("application/json");
  });

  it("names the paths that do not match the schema", async () => {
    const s = await serve((_r, res) => answer(res, 200, '{"results":[{"title":3}]}'));
    const error = (await httpJson(s.url, { schema: Shape, label: "Example API" }).catch(
      (e) => e,
    )) as HttpError;
    expect(error.kind).toBe("schema");
    expect(error.message).toMatch(/^Example API returned an unexpected response:\n {2}- results\.0\.title: /);
  });

  it("says when the body is not JSON", async () => {
    const s = await serve((_r, res) => answer(res, 200, "<html>"));
    await expect(httpJson(s.url, { schema: Shape, label: "Example API" })).rejects.toThrow(
      "Example API returned invalid JSON",
    );
  });
});
