/**
 * How a request changes when it follows a redirect, as OpenClaw's guarded fetch does
 * (`src/infra/net/fetch-guard.ts`, `src/infra/net/redirect-headers.ts`) and the Fetch standard
 * describes: 303 turns anything but GET/HEAD into GET, 301/302 turn POST into GET, and a GET
 * carries no body nor the headers that describe one; a hop to another origin drops the body
 * of an unsafe method and keeps only headers that are safe to replay there (no credentials,
 * no cookies, nothing describing a body that is not sent).
 */

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a request body (the Fetch standard's request-body-header names + length). */
export const BODY_HEADERS: ReadonlySet<string> = new Set([
  "content-encoding",
  "content-language",
  "content-length",
  "content-location",
  "content-type",
  "transfer-encoding",
]);

/** Headers replayed to another origin (OpenClaw's list minus those describing a body). */
export const CROSS_ORIGIN_SAFE_HEADERS: ReadonlySet<string> = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "if-unmodified-since",
  "pragma",
  "range",
  "user-agent",
]);

export interface RedirectRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const without = (headers: Record<string, string>, drop: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !drop(k.toLowerCase())));

/** The request to send to `to` after a `status` redirect from `from`. */
export function followRedirect(
  request: RedirectRequest,
  status: number,
  from: URL,
  to: URL,
): RedirectRequest {
  let { method, headers, body } = request;
  method = method.toUpperCase();
  const toGet =
    status === 303
      ? method !== "GET" && method !== "HEAD"
      : (status === 301 || status === 302) && method === "POST";
  if (toGet) {
    method = "GET";
    body = undefined;
    headers = without(headers, (k) => BODY_HEADERS.has(k));
  }
  if (to.origin !== from.origin) {
    body = undefined;
    headers = without(headers, (k) => !CROSS_ORIGIN_SAFE_HEADERS.has(k));
  }
  return { method, headers, ...(body !== undefined ? { body } : {}) };
}
