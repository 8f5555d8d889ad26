import { backgroundClock } from "@clawtools/core/time";
import type { ServerResponse } from "node:http";
import type { Server, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { McpToolsetLike } from "./server.js";

/** 30 minutes without a request: long enough for a person to think, short enough not to pile up. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Live MCP sessions one HTTP server holds at most. */
export const DEFAULT_MAX_SESSIONS = 100;

const minutes = (ms: number) =>
  ms >= 60_000 && ms % 60_000 === 0
    ? `${ms / 60_000} min`
    : ms >= 1000 && ms % 1000 === 0
      ? `${ms / 1000} s`
      : `${ms} ms`;

/** The error a new client gets when every session slot is taken (503). */
export function tooManySessionsMessage(max: number, idleMs: number): string {
  return (
    `Too many MCP sessions: this server holds at most ${max} live sessions (clawtools serve --max-sessions). ` +
    `Close a session you no longer use (HTTP DELETE), or retry once an idle one expires (after ${minutes(idleMs)} without a request).`
  );
}

/** The error a request for a closed, expired or unknown session gets (404: the client starts a new one). */
export function sessionNotFoundMessage(idleMs: number): string {
  return `Session not found: it was closed, or it expired after ${minutes(idleMs)} without a request. Start a new session with initialize.`;
}

export interface SessionEntry {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** Set when the session owns its toolset (one agent session per client): disposed on close. */
  toolset?: McpToolsetLike;
  /** POST and DELETE requests of this session still being answered. */
  active: number;
  live: boolean;
  closed: boolean;
  done?: Promise<void>;
  timer?: unknown;
}

export type CloseReason = "idle" | "client" | "server stop" | "not initialized";

/**
 * The live sessions of one HTTP server: a slot is taken before a client's initialize is handled
 * (so concurrent initializes cannot pass the cap), a session with no request in flight for
 * `idleMs` is closed (its running calls cancelled, its own toolset disposed), and every close
 * runs once whoever asks first (the client's DELETE, the idle timer, the server stopping).
 */
export class HttpSessions {
  private readonly live = new Map<string, SessionEntry>();
  /** Every session not yet closed, initializing ones included (the server's stop closes them all). */
  private readonly open = new Set<SessionEntry>();
  private slots = 0;

  constructor(
    readonly maxSessions: number,
    readonly idleMs: number,
    private readonly log: (message: string) => void,
  ) {}

  get size(): number {
    return this.live.size;
  }

  /** Takes a slot for a session about to initialize; false when the server is full. */
  reserve(): boolean {
    if (this.slots >= this.maxSessions) return false;
    this.slots += 1;
    return true;
  }

  /** Gives back a slot whose session was never created. */
  release(): void {
    this.slots -= 1;
  }

  /** A session in a reserved slot, before its initialize is answered. */
  add(entry: SessionEntry): void {
    this.open.add(entry);
  }

  get(id: string): SessionEntry | undefined {
    return this.live.get(id);
  }

  /** The session answered its initialize: it is live and idles from now. */
  activate(entry: SessionEntry): void {
    entry.live = true;
    this.live.set(entry.id, entry);
    if (entry.active === 0) this.arm(entry);
  }

  /**
   * Counts a request of the session until its response ends (or its connection drops). The
   * idle clock runs only while none is in flight: a long tool call never expires its session.
   */
  track(entry: SessionEntry, res: ServerResponse): void {
    entry.active += 1;
    backgroundClock.clearTimeout(entry.timer);
    entry.timer = undefined;
    res.once("close", () => {
      entry.active -= 1;
      if (entry.active === 0 && entry.live && !entry.closed) this.arm(entry);
    });
  }

  private arm(entry: SessionEntry): void {
    backgroundClock.clearTimeout(entry.timer);
    // the clock chains an idle time past Node's timer limit instead of firing it at once
    entry.timer = backgroundClock.setTimeout(() => void this.close(entry, "idle"), this.idleMs);
  }

  /** Closes the session once: cancels its calls, frees its slot, disposes its own toolset. */
  close(entry: SessionEntry, reason: CloseReason): Promise<void> {
    if (entry.closed) return entry.done ?? Promise.resolve();
    entry.closed = true;
    backgroundClock.clearTimeout(entry.timer);
    this.live.delete(entry.id);
    this.open.delete(entry);
    // the slot is free as soon as the session stops taking requests
    this.slots -= 1;
    entry.done = (async () => {
      try {
        await entry.transport.close();
      } catch (error) {
        this.log(`closing session ${entry.id} failed: ${(error as Error).message}`);
      }
      try {
        await entry.toolset?.dispose?.();
      } catch (error) {
        this.log(`disposing session ${entry.id}'s toolset failed: ${(error as Error).message}`);
      }
      if (reason === "idle") this.log(`session ${entry.id} expired after ${minutes(this.idleMs)} idle`);
      else if (reason === "client") this.log(`session ${entry.id} closed by the client`);
    })();
    return entry.done;
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.open].map((e) => this.close(e, "server stop")));
  }
}
