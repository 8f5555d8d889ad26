import { ENVELOPE } from "./raw-stdio.js";

/**
 * A 2026-07-28 request over HTTP, as the revision's wire is written: the method (and, for a tool
 * call or a resource read, its name) in SEP-2243 headers, the client's envelope in `_meta`.
 * `headers` adds to them (a stateless client's id, say).
 */
export function postModern(
  url: string,
  id: number,
  method: string,
  params: object,
  options: { signal?: AbortSignal | undefined; headers?: Record<string, string> } = {},
): Promise<Response> {
  const named = params as { name?: unknown; uri?: unknown };
  const name = method === "tools/call" ? named.name : method === "resources/read" ? named.uri : undefined;
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name !== undefined ? { "mcp-name": String(name) } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: ENVELOPE } }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
