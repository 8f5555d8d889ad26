import type { Dispatcher } from "undici";
import { guardedFetch, isFetchTimeoutError } from "../safety/url/guarded-fetch.js";
import type { Lookup, UrlPolicy } from "../safety/url/policy.js";

/** One request, one answer: what the retry loop sends each attempt. */
export interface Exchange {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Set: through core's URL policy (checked, pinned DNS, redirects re-checked). Unset: a trusted endpoint. */
  policy?: UrlPolicy;
  lookup?: Lookup;
  maxRedirects?: number;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  url: string;
}

/** The attempt ran out of time (either transport). */
export const isTimeout = (error: unknown) => {
  const e = error as { name?: string; code?: string } | null;
  return (
    isFetchTimeoutError(error) ||
    e?.code === "UND_ERR_HEADERS_TIMEOUT" ||
    e?.code === "UND_ERR_BODY_TIMEOUT" ||
    e?.name === "TimeoutError"
  );
};

let undici: typeof import("undici") | undefined;

async function readCapped(body: Dispatcher.ResponseData["body"], maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (size + buf.length > maxBytes) {
      chunks.push(buf.subarray(0, maxBytes - size));
      body.destroy();
      return { body: Buffer.concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(buf);
    size += buf.length;
  }
  return { body: Buffer.concat(chunks, size), truncated: false };
}

/** Sends one exchange and reads the answer up to `maxBytes`. */
export async function exchange(x: Exchange): Promise<RawAnswer> {
  if (x.policy) {
    const res = await guardedFetch(x.url, {
      policy: x.policy,
      method: x.method,
      headers: x.headers,
      ...(x.body !== undefined ? { body: x.body } : {}),
      timeoutMs: x.timeoutMs,
      maxBytes: x.maxBytes,
      ...(x.maxRedirects !== undefined ? { maxRedirects: x.maxRedirects } : {}),
      ...(x.signal ? { signal: x.signal } : {}),
      ...(x.lookup ? { lookup: x.lookup } : {}),
    });
    return {
      status: res.status,
      headers: res.headers,
      body: res.body,
      truncated: res.truncated,
      url: res.finalUrl,
    };
  }
  // undici loads with the first request, not with core
  undici ??= await import("undici");
  const response = await undici.request(x.url, {
    method: x.method as Dispatcher.HttpMethod,
    headers: x.headers,
    ...(x.body !== undefined ? { body: x.body } : {}),
    headersTimeout: x.timeoutMs,
    bodyTimeout: x.timeoutMs,
    ...(x.signal ? { signal: x.signal } : {}),
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  const { body, truncated } = await readCapped(response.body, x.maxBytes);
  return { status: response.statusCode, headers, body, truncated, url: x.url };
}

/** A FormData body as bytes plus its multipart content type (the boundary), so every attempt resends it. */
export async function encodeForm(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const encoded = new Response(form);
  return {
    body: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("content-type") ?? "multipart/form-data",
  };
}
