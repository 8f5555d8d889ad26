import type { SearchFarSideMode } from "@clawtools/testing";
import { serve, type Received } from "./server.js";

/*
 * One loopback server per test file standing in for a search API. Every request is checked against
 * the provider's documented wire format first: a mismatch is answered 400 with the reason (so the
 * provider's error shows it) and kept in `mismatches()` for the file's afterEach to report.
 */
export interface WireSpec {
  method: "GET" | "POST";
  path: string;
  /** Headers that must be present with exactly this value (names lower-case). */
  headers: Record<string, string>;
  /** Reads the query from a request that passed the method/path/header checks; a string is a mismatch. */
  query(req: Received): { query: string } | string;
  /** The 200 answer carrying SEARCH_CONFORMANCE_HITS in the provider's format. */
  hits(): { contentType: string; body: string };
  /** The API key the 500 answer echoes back (the provider must not repeat it). */
  apiKey: string;
}

export async function wireFake(spec: WireSpec) {
  let mode: SearchFarSideMode = "hits";
  let queries: string[] = [];
  let mismatches: string[] = [];
  const check = (req: Received): { query: string } | string => {
    const path = new URL(req.url, "http://fake").pathname;
    if (req.method !== spec.method) return `method ${req.method}, expected ${spec.method}`;
    if (path !== spec.path) return `path ${path}, expected ${spec.path}`;
    for (const [name, value] of Object.entries(spec.headers)) {
      const got = req.headers[name];
      if (got !== value) return `header ${name} is ${got === undefined ? "missing" : JSON.stringify(got)}`;
    }
    return spec.query(req);
  };
  const server = await serve((req, res) => {
    const checked = check(req);
    if (typeof checked === "string") {
      mismatches.push(checked);
      res.writeHead(400, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: `wire format: ${checked}` }));
    }
    queries.push(checked.query);
    if (mode === "status500") {
      res.writeHead(500, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: `invalid key ${spec.apiKey}` }));
    }
    if (mode === "not-json") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<html><body>Service temporarily unavailable</body></html>");
    }
    const { contentType, body } = spec.hits();
    res.writeHead(200, { "content-type": contentType }).end(body);
  });
  return {
    url: server.url,
    /** Forgets earlier tests' traffic and answers with hits again; called by each factory run. */
    reset() {
      mode = "hits";
      queries = [];
    },
    side: {
      received: () => queries,
      respondWith: (m: SearchFarSideMode) => {
        mode = m;
      },
    },
    /** Returns and clears the wire-format mismatches seen so far. */
    takeMismatches() {
      const seen = mismatches;
      mismatches = [];
      return seen;
    },
  };
}

/** Parses a JSON request body, or says why it is not one. */
export function jsonBody(req: Received): Record<string, unknown> | string {
  if (!/^application\/json\b/.test(String(req.headers["content-type"] ?? "")))
    return "content-type is not JSON";
  try {
    const body = JSON.parse(req.body) as unknown;
    return body && typeof body === "object" && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : "body is not a JSON object";
  } catch {
    return "body is not JSON";
  }
}

/** The transport the seam hands the provider: a plain fetch, so the suite tests the provider. */
export async function http(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown },
) {
  const body =
    init.body === undefined || typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    body: body as string,
  });
  return { status: res.status, text: await res.text() };
}

export const isCount = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 20;
