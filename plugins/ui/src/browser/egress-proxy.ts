import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import {
  createPinnedLookup,
  isSsrfBlockedError,
  type Lookup,
  type ResolvedAddress,
  resolvePinned,
  systemLookup,
  type UrlPolicy,
} from "@clawtools/core";

/** Marks the proxy's own refusals, so a navigation can tell a refused hop from a page's 403. */
export const BLOCKED_HEADER = "x-clawtools-blocked";
const CONNECT_TIMEOUT_MS = 30_000;
// Hop-by-hop headers (RFC 9110 §7.6.1) plus the proxy's own; never forwarded.
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  BLOCKED_HEADER, // only the proxy's own refusals carry it
]);

export interface EgressProxyOptions {
  policy: UrlPolicy;
  /** DNS resolver; every connection is pinned to the addresses it answered and were checked. */
  lookup?: Lookup;
  /** Called for each refused connection (host, port, reason), for status and tests. */
  onBlocked?: (event: { host: string; port: number; reason: string; message: string }) => void;
}

/**
 * A loopback forward proxy that Chromium sends every connection through (`--proxy-server`):
 * plain HTTP in absolute form, everything else (HTTPS, WebSockets) as CONNECT tunnels. Each
 * connection's host is resolved here once, every answer is checked against core's URL policy,
 * and the socket goes to a checked address (DNS rebinding cannot slip a second answer in).
 * A refused connection never leaves this process.
 */
export class EgressProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Duplex>();
  private port = 0;

  constructor(private readonly options: EgressProxyOptions) {}

  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer({ requireHostHeader: false });
    server.on("connection", (socket) => this.track(socket));
    server.on("request", (req, res) => void this.forward(req, res).catch(() => res.destroy()));
    server.on("connect", (req, socket, head) => {
      socket.on("error", () => {}); // Node hands the socket over without its own error handling
      void this.tunnel(req, socket, head);
    });
    // WebSockets come as CONNECT tunnels; an absolute-form Upgrade is not something Chromium sends
    server.on("upgrade", (_req, socket) => {
      socket.on("error", () => {});
      refuse(socket, 400, "upgrade requests must use CONNECT");
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    // a reset from either side is an ordinary end here, never an unhandled error in the server
    socket.on("error", () => {});
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }

  /** The checked addresses for host:port, or a refusal reason (the proxy itself is never a destination). */
  private async check(host: string, port: number): Promise<ResolvedAddress[] | string> {
    try {
      const addresses = await resolvePinned(host, this.options.policy, this.options.lookup ?? systemLookup);
      if (port === this.port && addresses.some((a) => isLoopback(a.address)))
        return "the browser's own egress proxy";
      return addresses;
    } catch (error) {
      return isSsrfBlockedError(error) ? error.message : `DNS lookup failed for ${host}`;
    }
  }

  private blocked(host: string, port: number, reason: string): string {
    const message = `Blocked by the browser's URL policy: ${host}:${port}: ${reason}`;
    this.options.onBlocked?.({ host, port, reason, message });
    return message;
  }

  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = parseAuthority(req.url ?? "");
    if (!target) return refuse(client, 400, "CONNECT needs host:port");
    const checked = await this.check(target.host, target.port);
    if (typeof checked === "string")
      return refuse(client, 403, this.blocked(target.host, target.port, checked));
    const upstream = await dial(checked, target.port).catch(() => undefined);
    if (!upstream) return refuse(client, 502, `Could not connect to ${target.host}:${target.port}`);
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    this.track(upstream);
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on("error", end).once("close", end);
    client.on("error", end).once("close", end);
  }

  /** Plain HTTP: the request line carries the absolute URL; it is re-sent to a checked address. */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = (status: number, body: string, extra: Record<string, string> = {}) => {
      req.resume();
      res.writeHead(status, {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        ...extra,
      });
      res.end(body);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return text(400, "absolute http URL required");
    }
    if (url.protocol !== "http:") return text(400, "only http is forwarded; use CONNECT");
    const port = Number(url.port || 80);
    const checked = await this.check(url.hostname, port);
    if (typeof checked === "string")
      return text(403, this.blocked(url.hostname, port, checked), { [BLOCKED_HEADER]: "1" });
    const upstream = httpRequest({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: endToEnd(req.headers),
      agent: false,
      lookup: createPinnedLookup(checked),
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.on("socket", (socket) => this.track(socket));
    upstream.on("response", (response) => {
      res.writeHead(response.statusCode ?? 502, endToEnd(response.headers));
      response.pipe(res);
    });
    upstream.on("timeout", () => upstream.destroy(new Error("timeout")));
    upstream.on("error", () => {
      if (!res.headersSent) text(502, `Could not reach ${url.host}`);
      else res.destroy();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }
}

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_HEADERS.has(name)) out[name] = value;
  return out;
}

function isLoopback(address: string): boolean {
  return address.startsWith("127.") || address === "::1" || address.startsWith("::ffff:127.");
}

/** `host:port` or `[v6]:port` of a CONNECT request. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.%]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: m[1]!, port };
}

function refuse(socket: Duplex, status: number, message: string): void {
  const reason = status === 403 ? "Forbidden" : status === 502 ? "Bad Gateway" : "Bad Request";
  const body = Buffer.from(message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\n${BLOCKED_HEADER}: 1\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${message}`,
  );
}

/** Connects to the first checked address that answers (never to a name: no second lookup). */
async function dial(addresses: ResolvedAddress[], port: number): Promise<Socket> {
  let last: unknown;
  for (const { address } of addresses) {
    if (!isIP(address)) continue;
    try {
      return await new Promise<Socket>((resolve, reject) => {
        const socket = connect({ host: address, port });
        socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error("connect timeout")));
        socket.once("connect", () => {
          socket.setTimeout(0);
          resolve(socket);
        });
        socket.once("error", reject);
      });
    } catch (error) {
      last = error;
    }
  }
  throw last ?? new Error("no address to connect to");
}
