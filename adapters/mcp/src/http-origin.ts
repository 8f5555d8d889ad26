import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * An origin as browsers send it: `scheme://host[:port]`, lower-case, default port dropped.
 * Throws, naming the value, for anything else (a path, a query, `*`, a non-http scheme).
 */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(
      `not an origin: "${value}" (expected scheme://host[:port], e.g. https://app.example.com)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`not an origin: "${value}" (only http:// and https:// origins can be allowed)`);
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password)
    throw new Error(`not an origin: "${value}" (an origin has no path, query or credentials)`);
  // URL drops the scheme's default port and lower-cases the host
  return url.origin;
}

/** The message a request from a foreign `Origin` gets (403). */
export function originRefusedMessage(origin: string): string {
  return `Forbidden: Origin ${origin} is not allowed to use this MCP server (allow it with clawtools serve --allow-origin ${origin})`;
}

/** Hosts of a page served from this machine, as `URL.hostname` spells them. */
const LOOPBACK_ORIGIN_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Which origins may use the server. Requests without `Origin` (every non-browser client) pass;
 * a browser's request passes from an origin the user allowed, and, when the server listens on
 * loopback only, from a page on this machine (`http(s)://localhost|127.0.0.1|[::1]`, any port:
 * the MCP Inspector, a local dev server). A page on any other site must not drive local tools
 * (the MCP transport spec requires servers to check it; DNS rebinding is stopped by the Host check).
 */
export class OriginPolicy {
  private readonly allowed: Set<string>;

  constructor(
    origins: readonly string[] = [],
    private readonly options: { loopback?: boolean } = {},
  ) {
    this.allowed = new Set(origins.map(normalizeOrigin));
  }

  private allows(normal: string): boolean {
    if (this.allowed.has(normal)) return true;
    return this.options.loopback === true && LOOPBACK_ORIGIN_HOSTS.has(new URL(normal).hostname);
  }

  /** undefined when the request may proceed; else the origin that was refused. */
  refused(req: IncomingMessage): string | undefined {
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    let normal: string;
    try {
      normal = normalizeOrigin(origin);
    } catch {
      return origin; // "null" (sandboxed frames, file://) and garbage are never allowed
    }
    return this.allows(normal) ? undefined : origin;
  }

  /** CORS headers for an allowed browser origin, so its page can read answers and the session id. */
  corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined) return {};
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": "mcp-session-id, mcp-protocol-version",
      vary: "Origin",
    };
  }

  /** Answers a CORS preflight from an allowed origin (204). */
  preflight(req: IncomingMessage, res: ServerResponse): void {
    res
      .writeHead(204, {
        ...this.corsHeaders(req),
        "access-control-allow-methods": "GET, POST, DELETE",
        "access-control-allow-headers":
          "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id",
        "access-control-max-age": "600",
      })
      .end();
  }
}
