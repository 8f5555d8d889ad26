import { Agent, request } from "undici";
import { type Lookup, resolvePinned, type SsrfPolicy, systemLookup } from "./policy.js";

export interface GuardedFetchOptions {
  policy?: SsrfPolicy;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  body?: string;
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

// Headers that may follow a redirect to another origin; everything else (cookies, auth) is dropped.
const CROSS_ORIGIN_SAFE = /^(accept.*|cache-control|content-.*|if-.*|pragma|range|user-agent)$/i;

function pinnedAgent(addresses: Array<{ address: string; family: number }>): Agent {
  return new Agent({
    connect: {
      // every connection goes to the addresses that were checked: no second DNS answer
      lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      }) as never,
    },
  });
}

// Pinned agents are reused per (origin, checked addresses), so keep-alive connections survive
// between calls; a different DNS answer gets a different agent, never a re-resolution.
const agents = new Map<string, Agent>();
const MAX_AGENTS = 32;
function agentFor(origin: string, addresses: Array<{ address: string; family: number }>): Agent {
  const key = `${origin}|${addresses.map((a) => a.address).join(",")}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    agent = pinnedAgent(addresses);
  }
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
 * An SSRF-proof fetch: http(s) only; every hop's host checked and resolved once, the socket
 * pinned to the checked addresses; redirects followed by hand (limit, loop detection,
 * sensitive headers dropped across origins); the body read up to a byte cap.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const policy = options.policy ?? {};
  const maxRedirects = options.maxRedirects ?? 3;
  const maxBytes = options.maxBytes ?? 2_000_000;
  const lookup = options.lookup ?? systemLookup;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let headers = { ...(options.headers ?? {}) };
  let current = new URL(url);
  const visited = new Set<string>();
  for (let hop = 0; ; hop++) {
    if (current.protocol !== "http:" && current.protocol !== "https:") {
      throw new Error(`Unsupported URL protocol ${current.protocol} (only http and https)`);
    }
    if (visited.has(current.href)) throw new Error("Redirect loop detected");
    visited.add(current.href);
    const addresses = await resolvePinned(current.hostname, policy, lookup);
    const agent = agentFor(current.origin, addresses);
    const response = await request(current, {
      method: hop === 0 ? (options.method ?? "GET") : "GET",
      headers,
      ...(hop === 0 && options.body !== undefined ? { body: options.body } : {}),
      dispatcher: agent,
      signal,
    });
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && response.statusCode !== 304) {
      await response.body.dump();
      if (!location) throw new Error(`Redirect (${response.statusCode}) without a Location header`);
      if (hop + 1 > maxRedirects) throw new Error(`Too many redirects (limit: ${maxRedirects})`);
      const next = new URL(Array.isArray(location) ? location[0]! : location, current);
      if (next.origin !== current.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => CROSS_ORIGIN_SAFE.test(k)));
      }
      current = next;
      continue;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of response.body) {
      const buf = chunk as Buffer;
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        response.body.destroy();
        break;
      }
      chunks.push(buf);
      size += buf.length;
    }
    return {
      status: response.statusCode,
      headers: headerRecord(response.headers),
      finalUrl: current.href,
      body: Buffer.concat(chunks, size),
      truncated,
    };
  }
}
