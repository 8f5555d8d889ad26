import { backgroundClock } from "@clawtools/core";
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpSessions } from "./http-sessions.js";
import type { McpToolsetLike } from "./server.js";

/**
 * The header a 2026-07-28 host may send to tell its instances apart (two copies of one host
 * program on one machine): any string up to 200 characters, the same on every request.
 */
export const CLIENT_ID_HEADER = "clawtools-client-id";

const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo";

/**
 * Who a stateless (2026-07-28) request comes from. That revision has no session, so a client is
 * what it sends on every request: its `clientInfo` (name, version), its `Authorization`, the
 * address it connects from, and the optional `Clawtools-Client-Id` header. Requests agreeing on
 * all four are one client; the id is a hash of them (the token never appears in it).
 */
export function statelessClientId(req: IncomingMessage, body: unknown): string {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
  const info = meta?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  const instance = req.headers[CLIENT_ID_HEADER];
  const parts = [
    typeof info?.name === "string" ? info.name : "",
    typeof info?.version === "string" ? info.version : "",
    req.headers.authorization ?? "",
    req.socket.remoteAddress ?? "",
    typeof instance === "string" ? instance.slice(0, 200) : "",
  ];
  return `c-${createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 24)}`;
}

interface ClientEntry {
  id: string;
  toolset?: McpToolsetLike;
  ready: Promise<McpToolsetLike>;
  active: number;
  closed: boolean;
  timer?: unknown;
  unfollow?: (() => void) | undefined;
}

/**
 * The agent sessions of stateless (2026-07-28) clients, one per client (see `statelessClientId`):
 * made on the client's first request, taking one of the server's session slots, and closed
 * (its toolset disposed: its processes killed, its sub-agents ended) after `idleMs` with no
 * request in flight, since such a client never says it is gone.
 */
export class StatelessClients {
  private readonly clients = new Map<string, ClientEntry>();

  constructor(
    private readonly sessions: HttpSessions,
    private readonly make: (id: string) => McpToolsetLike | Promise<McpToolsetLike>,
    private readonly log: (message: string) => void,
    /** Follows a client's toolset while the client lives (its listen streams' changes); returns the stop. */
    private readonly follow?: (toolset: McpToolsetLike) => () => void,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  /**
   * The client's toolset for one request, counted in flight until `res` closes; undefined
   * when the server is full (every session slot taken).
   */
  async acquire(id: string, res: ServerResponse): Promise<McpToolsetLike | undefined> {
    let entry = this.clients.get(id);
    if (!entry) {
      if (!this.sessions.reserve()) return undefined;
      const made: ClientEntry = {
        id,
        active: 0,
        closed: false,
        ready: Promise.resolve().then(() => this.make(id)),
      };
      made.ready.then(
        (toolset) => {
          made.toolset = toolset;
          if (!made.closed) made.unfollow = this.follow?.(toolset);
        },
        () => {
          // a client whose toolset could not be made holds no slot; its next request tries again
          this.clients.delete(id);
          if (!made.closed) this.sessions.release();
          made.closed = true;
        },
      );
      this.clients.set(id, made);
      this.log(`stateless client ${id}: agent session started`);
      entry = made;
    }
    const current = entry;
    current.active += 1;
    backgroundClock.clearTimeout(current.timer);
    res.once("close", () => {
      current.active -= 1;
      if (current.active === 0 && !current.closed) {
        // the clock chains an idle time past Node's timer limit instead of firing it at once
        current.timer = backgroundClock.setTimeout(
          () => void this.close(current, "idle"),
          this.sessions.idleMs,
        );
      }
    });
    return current.ready;
  }

  private async close(entry: ClientEntry, reason: "idle" | "server stop"): Promise<void> {
    if (entry.closed) return;
    entry.closed = true;
    backgroundClock.clearTimeout(entry.timer);
    this.clients.delete(entry.id);
    this.sessions.release();
    const toolset = await entry.ready.catch(() => undefined);
    entry.unfollow?.();
    try {
      await toolset?.dispose?.();
    } catch (error) {
      this.log(`disposing stateless client ${entry.id}'s toolset failed: ${(error as Error).message}`);
    }
    if (reason === "idle") this.log(`stateless client ${entry.id}: agent session ended (idle)`);
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.clients.values()].map((e) => this.close(e, "server stop")));
  }
}
