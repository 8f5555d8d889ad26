import {
  createServer,
  type IncomingMessage,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Duplex } from "node:stream";
import {
  createPinnedLookup,
  isSsrfBlockedError,
  type Lookup,
  type ResolvedAddress,
  resolvePinned,
  systemLookup,
  type UrlPolicy,
} from "./policy.js";
import {
  BLOCKED_HEADER,
  CONNECT_TIMEOUT_MS,
  dial,
  endToEnd,
  isLoopback,
  parseAuthority,
  refuse,
} from "./egress-wire.js";

export { BLOCKED_HEADER } from "./egress-wire.js";

export interface EgressProxyOptions {
  policy: UrlPolicy;
  /** DNS resolver; every connection is pinned to the addresses it answered and were checked. */
  lookup?: Lookup;
  /** Called for each refused connection (host, port, reason), for status and tests. */
  onBlocked?: (event: { host: string; port: number; reason: string; message: string }) => void;
  /** Who it serves, for refusals (`the browser's`, the default; `the sandbox's`). */
  owner?: string;
  /** Listen on this unix socket instead of a loopback port (a sandbox without a network reaches it). */
  socketPath?: string;
}

/**
 * A loopback forward proxy that Chromium (and sandboxed commands) send every connection through (`--proxy-server`):
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

  private get owner(): string {
    return this.options.owner ?? "the browser's";
  }

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
      if (this.options.socketPath) server.listen(this.options.socketPath, () => resolve());
      else server.listen(0, "127.0.0.1", () => resolve());
    });
    if (!this.options.socketPath) this.port = (server.address() as { port: number }).port;
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
        return `${this.owner} own egress proxy`;
      return addresses;
    } catch (error) {
      return isSsrfBlockedError(error) ? error.message : `DNS lookup failed for ${host}`;
    }
  }

  private blocked(host: string, port: number, reason: string): string {
    const message = `Blocked by ${this.owner} URL policy: ${host}:${port}: ${reason}`;
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
