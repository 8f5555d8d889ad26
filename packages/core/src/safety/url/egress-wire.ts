import type { IncomingHttpHeaders } from "node:http";
import { connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ResolvedAddress } from "./policy.js";

// The egress proxy's wire-level pieces: headers it never forwards, CONNECT parsing, refusals, dialing.

/** Marks the proxy's own refusals, so a navigation can tell a refused hop from a page's 403. */
export const BLOCKED_HEADER = "x-clawtools-blocked";
export const CONNECT_TIMEOUT_MS = 30_000;
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

export function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_HEADERS.has(name)) out[name] = value;
  return out;
}

export function isLoopback(address: string): boolean {
  return address.startsWith("127.") || address === "::1" || address.startsWith("::ffff:127.");
}

/** `host:port` or `[v6]:port` of a CONNECT request. */
export function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.%]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(authority);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: m[1]!, port };
}

export function refuse(socket: Duplex, status: number, message: string): void {
  const reason = status === 403 ? "Forbidden" : status === 502 ? "Bad Gateway" : "Bad Request";
  const body = Buffer.from(message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\n${BLOCKED_HEADER}: 1\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${message}`,
  );
}

/** Connects to the first checked address that answers (never to a name: no second lookup). */
export async function dial(addresses: ResolvedAddress[], port: number): Promise<Socket> {
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
