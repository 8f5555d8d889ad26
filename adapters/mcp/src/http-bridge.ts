import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A Node request as the Fetch `Request` SDK v2's HTTP transports take. The body was already read
 * (and size-checked) by the server, so it is passed to the transport as `parsedBody` instead; the
 * request's signal aborts when the client's connection closes, which cancels its running calls.
 */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, body: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const method = req.method ?? "GET";
  return new Request(url, {
    method,
    headers,
    signal: abort.signal,
    ...(method === "POST" && body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** Writes a Fetch `Response` (JSON, or an SSE stream kept open while the client listens) to Node. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = [...(headers[name] ?? []), value];
  });
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // the client went away: stop reading so the transport sees its stream cancelled
  res.once("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value))
        await new Promise((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
      // SSE events reach the client as they are written
      (res as { flush?: () => void }).flush?.();
    }
  } catch {
    // cancelled because the connection closed: nothing left to send
  } finally {
    if (!res.writableEnded) res.end();
  }
}
