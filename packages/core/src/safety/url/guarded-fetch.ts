import { ClawtoolsError } from "../../clawtools-error.js";
import type { Agent, Dispatcher } from "undici";
import { systemClock } from "../../time/clock.js";
import { followRedirect, REDIRECT_STATUSES, type RedirectRequest } from "./redirect.js";
import {
  checkHostWithoutDns,
  createPinnedLookup,
  type Lookup,
  type ResolvedAddress,
  resolveCheckedName,
  systemLookup,
  type UrlPolicy,
} from "./policy.js";

export interface GuardedFetchOptions {
  policy?: UrlPolicy;
  headers?: Record<string, string>;
  /** Default GET. */
  method?: string;
  body?: string | Uint8Array;
  /** Default 3. */
  maxRedirects?: number;
  /** Bytes read before the body is cut (default 2,000,000). */
  maxBytes?: number;
  /** Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** DNS resolver (tests inject answers); the connection is pinned to what it returns. */
  lookup?: Lookup;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  finalUrl: string;
  body: Buffer;
  /** The body was longer than maxBytes and was cut. */
  truncated: boolean;
}

const FETCH_TIMEOUT_ERROR = Symbol.for("clawtools.error.FetchTimeoutError");

/** The whole exchange, redirects included, took longer than `timeoutMs`. */
export class FetchTimeoutError extends ClawtoolsError {
  static override readonly marker: symbol = FETCH_TIMEOUT_ERROR;
  readonly [FETCH_TIMEOUT_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_FETCH_TIMEOUT";
  }
  override name = "TimeoutError";
  constructor(ms: number) {
    super(`Request timed out after ${ms} ms`);
  }
}

/** Whether `error` is a FetchTimeoutError from any copy of this package (its brand, not `instanceof`). */
export function isFetchTimeoutError(error: unknown): error is FetchTimeoutError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[FETCH_TIMEOUT_ERROR] === true
  );
}

// undici loads on the first request, so importing core costs nothing for it
let undici: typeof import("undici") | undefined;
const loadUndici = async () => {
  undici ??= await import("undici");
  return undici;
};

// Pinned agents are reused per (origin, checked addresses), so keep-alive connections survive
// between calls; a different DNS answer gets a different agent, never a re-resolution.
const agents = new Map<string, Agent>();
const MAX_AGENTS = 32;
function agentFor(lib: typeof import("undici"), origin: string, addresses: ResolvedAddress[]): Agent {
  const key = `${origin}|${addresses.map((a) => a.address).join(",")}`;
  let agent = agents.get(key);
  if (agent) agents.delete(key);
  else agent = new lib.Agent({ connect: { lookup: createPinnedLookup(addresses) } });
  agents.set(key, agent);
  while (agents.size > MAX_AGENTS) {
    const [oldKey, old] = agents.entries().next().value!;
    agents.delete(oldKey);
    old.close().catch(() => {});
  }
  return agent;
}

function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/**
 * Reads a body up to `maxBytes`; the deadline destroys a body that trickles in too slowly.
 * With a declared length within the cap undici stops at that length: one read, no copies.
 */
async function readCapped(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  msLeft: number,
  timeoutMs: number,
) {
  // a timer, not a promise race: it destroys the body stream mid-read, which no race can do
  const timer = systemClock.setTimeout(() => response.body.destroy(new FetchTimeoutError(timeoutMs)), msLeft);
  try {
    const declared = Number(response.headers["content-length"]);
    if (Number.isInteger(declared) && declared <= maxBytes) {
      return { body: Buffer.from(await response.body.arrayBuffer()), truncated: false };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const buf = chunk as Buffer;
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size));
        response.body.destroy();
        return { body: Buffer.concat(chunks, maxBytes), truncated: true };
      }
      chunks.push(buf);
      size += buf.length;
    }
    return { body: Buffer.concat(chunks, size), truncated: false };
  } finally {
    systemClock.clearTimeout(timer);
  }
}

/**
 * A fetch that only reaches what the URL policy allows: http(s) only; every hop's host checked
 * and resolved once, the socket pinned to the checked addresses; redirects followed by hand
 * (limit, loop detection, method and headers adjusted as {@link followRedirect} says); the body
 * read up to a byte cap; one deadline for the whole exchange, redirects included.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const policy = options.policy ?? {};
  const maxRedirects = options.maxRedirects ?? 3;
  const maxBytes = options.maxBytes ?? 2_000_000;
  const lookup = options.lookup ?? systemLookup;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // a deadline rather than a timeout signal: undici's own timers enforce it, and a request
  // without a signal skips abort bookkeeping on the hot path
  const deadline = performance.now() + timeoutMs;
  const msLeft = () => {
    const left = Math.ceil(deadline - performance.now());
    if (left <= 0) throw new FetchTimeoutError(timeoutMs);
    return left;
  };
  const lib = undici ?? (await loadUndici());
  let request: RedirectRequest = {
    method: (options.method ?? "GET").toUpperCase(),
    headers: { ...(options.headers ?? {}) },
    ...(options.body !== undefined ? { body: options.body } : {}),
  };
  let current = new URL(url);
  const visited = new Set<string>();
  for (let hop = 0; ; hop++) {
    options.signal?.throwIfAborted();
    if (current.protocol !== "http:" && current.protocol !== "https:") {
      throw new Error(`Unsupported URL protocol ${current.protocol} (only http and https)`);
    }
    const visitKey = `${request.method} ${current.href}`;
    if (visited.has(visitKey)) throw new Error("Redirect loop detected");
    visited.add(visitKey);
    // IP literals are checked without a trip through the event loop
    const addresses =
      checkHostWithoutDns(current.hostname, policy) ??
      (await resolveCheckedName(current.hostname, policy, lookup));
    const agent = agentFor(lib, current.origin, addresses);
    const left = msLeft();
    // straight to the pinned agent: undici's top-level request() adds a few µs per call
    const response = await agent
      .request({
        origin: current.origin,
        path: `${current.pathname}${current.search}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        headersTimeout: left,
        bodyTimeout: left,
        ...(options.signal ? { signal: options.signal } : {}),
      })
      .catch((error: Error) => {
        throw error.name === "HeadersTimeoutError" ? new FetchTimeoutError(timeoutMs) : error;
      });
    if (REDIRECT_STATUSES.has(response.statusCode)) {
      await response.body.dump();
      const location = response.headers.location;
      if (!location) throw new Error(`Redirect missing location header (${response.statusCode})`);
      if (hop + 1 > maxRedirects) throw new Error(`Too many redirects (limit: ${maxRedirects})`);
      const next = new URL(Array.isArray(location) ? location[0]! : location, current);
      request = followRedirect(request, response.statusCode, current, next);
      current = next;
      continue;
    }
    const { body, truncated } = await readCapped(response, maxBytes, msLeft(), timeoutMs);
    return {
      status: response.statusCode,
      headers: headerRecord(response.headers),
      finalUrl: current.href,
      body,
      truncated,
    };
  }
}
