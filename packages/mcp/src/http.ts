import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createLifecycle, type LifecycleOptions, type McpServing } from "./lifecycle.js";
import { MessageIdScanner } from "./message-scan.js";
import {
  type CreateMcpServerOptions,
  createMcpServer,
  type McpToolsetLike,
  NOT_INITIALIZED_MESSAGE,
} from "./server.js";
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
}

export interface McpHttpServing extends McpServing {
  /** The endpoint, e.g. `http://127.0.0.1:8931/mcp`. */
  url: string;
  port: number;
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

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Serves a toolset over MCP's Streamable HTTP transport (the SDK's), one MCP session per client,
 * on loopback by default. A non-loopback address requires a bearer token; on loopback the Host
 * header must name this server (DNS rebinding). Stops on the lifecycle signals or `stop()`,
 * closing every session and disposing the toolset.
 */
export async function serveHttp(toolset: McpToolsetLike, options: ServeHttpOptions): Promise<McpHttpServing> {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopbackHost(host);
  if (!loopback && !options.token) throw new Error(tokenRequiredMessage(host));
  // the HTTP stack (hono's node adapter) loads only for apps that serve over HTTP
  const { StreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/streamableHttp.js"
  );
  const endpoint = options.path ?? "/mcp";
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const log = options.log ?? (() => {});
  const sessions = new Map<string, StreamableHTTPServerTransport>();

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
      const read = await readBody(req, max);
      if (!read.ok) return sendJson(res, read.status, read.error);
      body = read.value;
    }
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (!transport) return sendJson(res, 404, rpcError(-32001, "Session not found"));
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      const id = (body as { id?: unknown } | undefined)?.id;
      return sendJson(res, 400, rpcError(ErrorCode.InvalidRequest, NOT_INITIALIZED_MESSAGE, id));
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    const server = createMcpServer(toolset, options);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    server.onerror = (error) => log(error.message);
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
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
    await Promise.allSettled([...sessions.values()].map((t) => t.close()));
    sessions.clear();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  });
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return { done: life.done, stop: life.stop, url: `http://${shownHost}:${port}${endpoint}`, port };
}
