import { backgroundClock } from "@clawtools/core/time";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ProtocolErrorCode as ErrorCode, isInitializeRequest } from "@modelcontextprotocol/server";
import { sendWebResponse, toWebRequest } from "./http-bridge.js";
import { StatelessClients, statelessClientId } from "./http-clients.js";
import { HEADER_MISMATCH, paramHeaderRejection } from "./http-param-headers.js";
import { ClientEventBus } from "./listen-bus.js";
import { OriginPolicy, originRefusedMessage } from "./http-origin.js";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  HttpSessions,
  type SessionEntry,
  sessionNotFoundMessage,
  tooManySessionsMessage,
} from "./http-sessions.js";
import { createLifecycle, type LifecycleOptions, type McpServing } from "./lifecycle.js";
import { MessageIdScanner } from "./message-scan.js";
import {
  type CreateMcpServerOptions,
  createMcpServer,
  type McpToolsetLike,
  NOT_INITIALIZED_MESSAGE,
} from "./server.js";
import type { RootsListener } from "./roots.js";
import { DEFAULT_MAX_MESSAGE_BYTES, messageTooLargeMessage } from "./stdio-transport.js";

export interface ServeHttpOptions extends CreateMcpServerOptions, LifecycleOptions {
  /** TCP port (0: any free port; the chosen one is in the result). */
  port: number;
  /**
   * Address to listen on (default 127.0.0.1). Any address that is not loopback needs `token`:
   * the server refuses to start without one.
   */
  host?: string;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`). */
  token?: string;
  /** The MCP endpoint's path (default `/mcp`). */
  path?: string;
  /** Largest request body (default 64 MiB); a larger one is answered with 413 and a JSON-RPC error. */
  maxMessageBytes?: number;
  /**
   * Browser origins (`https://app.example.com`) allowed to use the server. A request carrying any
   * other `Origin` gets 403; requests without one (non-browser clients) are not affected. On a
   * loopback address, pages on this machine (`localhost`, `127.0.0.1`, `[::1]`, any port) are allowed too.
   */
  allowedOrigins?: readonly string[];
  /** A session with no request for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /** Live sessions at most (default 100); a new client past it gets 503 naming the limit. */
  maxSessions?: number;
  /**
   * One agent session per MCP client: called when a 2025-era client initializes, or on a
   * stateless (2026-07-28) client's first request (`sessionId` is then `c-<hash>` of what the
   * client sends, see `statelessClientId`); the toolset it returns serves that client alone and is
   * disposed when its session closes or expires (a stateless client's after `sessionIdleMs` with no
   * request). Without it every client shares `toolset` (one agent session: the same background
   * processes, sub-agents and loop-detection history).
   */
  sessionToolset?: (session: { sessionId: string }) => SessionToolsetLike | Promise<SessionToolsetLike>;
}

/**
 * A client's own toolset; with `onRoots` it follows that client's roots alone (read on its
 * requests, see `followRoots`), whatever the other sessions' roots are.
 */
export type SessionToolsetLike = McpToolsetLike & { onRoots?: RootsListener };

export interface McpHttpServing extends McpServing {
  /** The endpoint, e.g. `http://127.0.0.1:8931/mcp`. */
  url: string;
  port: number;
  /** Live MCP sessions right now: 2025-era sessions and stateless clients' agent sessions. */
  sessionCount(): number;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** Whether an address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The error `serveHttp` throws for a non-loopback address without a token. */
export function tokenRequiredMessage(host: string): string {
  return `a bearer token is required to serve MCP over HTTP on ${host}, which is not a loopback address (set --token or CLAWTOOLS_MCP_TOKEN)`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

const rpcError = (code: number, message: string, id: unknown = null, data?: unknown) => ({
  jsonrpc: "2.0",
  id: typeof id === "string" || typeof id === "number" ? id : null,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});

type Body = { ok: true; value: unknown } | { ok: false; status: number; error: ReturnType<typeof rpcError> };

/** Reads a JSON body up to `max` bytes; past it, reads on only to find the request's id. */
async function readBody(req: IncomingMessage, max: number): Promise<Body> {
  const parts: Buffer[] = [];
  let size = 0;
  let scanner: MessageIdScanner | undefined;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (scanner) scanner.write(chunk);
    else if (size > max) {
      scanner = new MessageIdScanner();
      for (const part of parts) scanner.write(part);
      scanner.write(chunk);
      parts.length = 0;
    } else parts.push(chunk);
  }
  if (scanner) {
    const message = messageTooLargeMessage(size, max);
    return {
      ok: false,
      status: 413,
      error: rpcError(ErrorCode.InvalidRequest, message, scanner.end(), { limit: max, size }),
    };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(parts).toString("utf8")) };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      error: rpcError(ErrorCode.ParseError, `Parse error: ${(error as Error).message}`),
    };
  }
}

/** How long a refused body may keep arriving (discarded) before its connection is cut. */
const REFUSED_BODY_GRACE_MS = 2000;

/**
 * 413 for a body whose Content-Length is over the limit, sent before any of it is read. What
 * arrives meanwhile is discarded (a client still sending reads the answer, not a reset), and the
 * connection closes after a short grace whatever the client does.
 */
function refuseDeclaredBody(req: IncomingMessage, res: ServerResponse, declared: number, max: number): void {
  req.resume();
  sendJson(
    res,
    413,
    rpcError(ErrorCode.InvalidRequest, messageTooLargeMessage(declared, max), null, {
      limit: max,
      size: declared,
    }),
    { connection: "close" },
  );
  res.once("finish", () => backgroundClock.setTimeout(() => req.socket.destroy(), REFUSED_BODY_GRACE_MS));
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function checkLimit(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0))
    throw new Error(`${name} must be a positive integer, got ${value}`);
}

/**
 * Serves a toolset over MCP's Streamable HTTP transport (the SDK's), one MCP session per client,
 * on loopback by default. A non-loopback address requires a bearer token; on loopback the Host
 * header must name this server (DNS rebinding); a browser `Origin` must be one the user allowed.
 * Sessions idle past `sessionIdleMs` close, and at most `maxSessions` live at once. With
 * `sessionToolset` each client gets its own toolset. Stops on the lifecycle signals or `stop()`,
 * closing every session and disposing the toolset(s).
 */
export async function serveHttp(toolset: McpToolsetLike, options: ServeHttpOptions): Promise<McpHttpServing> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  if (!loopback && !options.token) throw new Error(tokenRequiredMessage(host));
  checkLimit("sessionIdleMs", options.sessionIdleMs);
  checkLimit("maxSessions", options.maxSessions);
  const origins = new OriginPolicy(options.allowedOrigins, { loopback });
  const { WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest } = await import(
    "@modelcontextprotocol/server"
  );
  // 2026-07-28 requests are stateless (no session): each is served by an instance over the
  // toolset of the client it comes from (see `clients`); 2025-era clients keep their sessions below
  const clientToolset = new AsyncLocalStorage<McpToolsetLike>();
  // their subscriptions/listen streams hear their own toolset's changes (the shared one's without sessionToolset)
  const bus = new ClientEventBus(() => clientToolset.getStore());
  const unfollowShared = bus.follow(toolset, undefined);
  const modern = createMcpHandler(
    () => createMcpServer(clientToolset.getStore() ?? toolset, { ...options, transport: "tcp" }),
    {
      legacy: "reject",
      bus,
      onerror: (error) => log(error.message),
    },
  );
  const endpoint = options.path ?? "/mcp";
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const log = options.log ?? (() => {});
  const sessions = new HttpSessions(
    options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    log,
  );
  const sessionToolset = options.sessionToolset;
  const clients = sessionToolset
    ? new StatelessClients(
        sessions,
        (sessionId) => sessionToolset({ sessionId }),
        log,
        (own) => bus.follow(own, own),
      )
    : undefined;
  let stopping = false;

  /** A new client: a slot, its toolset, a transport whose session id is known up front. */
  const initialize = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = (body as { id?: unknown }).id;
    const full = rpcError(-32000, tooManySessionsMessage(sessions.maxSessions, sessions.idleMs), id);
    if (stopping || !sessions.reserve()) return sendJson(res, 503, full, { "retry-after": "60" });
    const sessionId = randomUUID();
    let own: SessionToolsetLike | undefined;
    try {
      own = options.sessionToolset ? await options.sessionToolset({ sessionId }) : undefined;
    } catch (error) {
      sessions.release();
      log(`could not build the toolset for a new session: ${(error as Error).message}`);
      return sendJson(
        res,
        500,
        rpcError(ErrorCode.InternalError, `Could not start a session: ${(error as Error).message}`, id),
      );
    }
    const entry: SessionEntry = {
      id: sessionId,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        onsessioninitialized: () => sessions.activate(entry),
      }),
      server: createMcpServer(own ?? toolset, {
        ...options,
        transport: "tcp",
        ...(own?.onRoots ? { onRoots: own.onRoots } : {}),
        rootsOnRequest: true,
      }),
      ...(own ? { toolset: own } : {}),
      active: 0,
      live: false,
      closed: false,
    };
    sessions.add(entry);
    entry.transport.onclose = () => void sessions.close(entry, "client");
    entry.server.onerror = (error) => log(error.message);
    await entry.server.connect(entry.transport);
    sessions.track(entry, res);
    await sendWebResponse(
      res,
      await entry.transport.handleRequest(toWebRequest(req, res, body), { parsedBody: body }),
    );
    // an initialize the transport refused (a bad protocol version…) leaves no session behind
    if (!entry.live) await sessions.close(entry, "not initialized");
  };

  /** A stateless client's own toolset (made on its first request), or "refused" when answered here. */
  const clientOf = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<McpToolsetLike | undefined | "refused"> => {
    if (!clients) return undefined;
    const id = (body as { id?: unknown }).id;
    const own = stopping
      ? undefined
      : await clients.acquire(statelessClientId(req, body), res).catch((error: Error) => error);
    if (own instanceof Error) {
      log(`could not build the toolset for a stateless client: ${own.message}`);
      sendJson(res, 500, rpcError(ErrorCode.InternalError, `Could not start a session: ${own.message}`, id));
      return "refused";
    }
    if (own) return own;
    sendJson(res, 503, rpcError(-32000, tooManySessionsMessage(sessions.maxSessions, sessions.idleMs), id), {
      "retry-after": "60",
    });
    return "refused";
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== endpoint)
      return sendJson(
        res,
        404,
        rpcError(ErrorCode.InvalidRequest, `Not found: the MCP endpoint is ${endpoint}`),
      );
    if (loopback) {
      const name = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
      if (!LOOPBACK_NAMES.has(name) && !/^127(\.\d{1,3}){3}$/.test(name))
        return sendJson(
          res,
          403,
          rpcError(
            ErrorCode.InvalidRequest,
            `Forbidden: Host ${req.headers.host ?? "(none)"} is not this loopback server`,
          ),
        );
    }
    const refused = origins.refused(req);
    if (refused !== undefined)
      return sendJson(res, 403, rpcError(ErrorCode.InvalidRequest, originRefusedMessage(refused)));
    const cors = origins.corsHeaders(req);
    // a browser's preflight carries no credentials: answer it before the token check
    if (req.method === "OPTIONS") return origins.preflight(req, res);
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    if (options.token && !tokenMatches(req.headers.authorization, options.token))
      return sendJson(
        res,
        401,
        rpcError(-32001, "Unauthorized: this server requires Authorization: Bearer <token>"),
        { "www-authenticate": 'Bearer realm="clawtools"' },
      );
    const sessionId = req.headers["mcp-session-id"];
    let body: unknown;
    if (req.method === "POST") {
      // a declared length over the limit is refused before any of the body is waited for
      const declared = Number(req.headers["content-length"] ?? Number.NaN);
      if (declared > max) return refuseDeclaredBody(req, res, declared, max);
      const read = await readBody(req, max);
      if (!read.ok) return sendJson(res, read.status, read.error);
      body = read.value;
    }
    if (typeof sessionId === "string") {
      const entry = sessions.get(sessionId);
      if (!entry) return sendJson(res, 404, rpcError(-32001, sessionNotFoundMessage(sessions.idleMs)));
      // the client's standalone event stream (GET) stays open while it listens: not activity
      if (req.method !== "GET") sessions.track(entry, res);
      const request = toWebRequest(req, res, body);
      return sendWebResponse(res, await entry.transport.handleRequest(request, { parsedBody: body }));
    }
    if (req.method === "POST" && !isInitializeRequest(body)) {
      const request = toWebRequest(req, res, body);
      if (!(await isLegacyRequest(request, body))) {
        const own = await clientOf(req, res, body);
        if (own === "refused") return;
        // SEP-2243: an x-mcp-header parameter's Mcp-Param-* header must say what the body says
        const bad = paramHeaderRejection((own ?? toolset).tools, body, req.headers);
        if (bad) return sendJson(res, 400, rpcError(HEADER_MISMATCH, bad.message, bad.id, bad.data));
        const serve = () => modern.fetch(request, { parsedBody: body });
        return sendWebResponse(res, await (own ? clientToolset.run(own, serve) : serve()));
      }
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      const id = (body as { id?: unknown } | undefined)?.id;
      return sendJson(res, 400, rpcError(ErrorCode.InvalidRequest, NOT_INITIALIZED_MESSAGE, id));
    }
    return initialize(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log(`request failed: ${(error as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, rpcError(ErrorCode.InternalError, "Internal error"));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const life = createLifecycle(toolset, options, async () => {
    stopping = true;
    await sessions.closeAll();
    await clients?.closeAll();
    unfollowShared();
    await modern.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  });
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    done: life.done,
    stop: life.stop,
    url: `http://${shownHost}:${port}${endpoint}`,
    port,
    sessionCount: () => sessions.size + (clients?.size ?? 0),
  };
}
