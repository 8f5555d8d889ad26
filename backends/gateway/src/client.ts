import { platform as osPlatform } from "node:os";
import { redactSecrets, registerSecret } from "@clawtools/core/safety";
import { type Clock, systemClock } from "@clawtools/core/time";
import { backoffDelay } from "@clawtools/core/http";
import WebSocket from "ws";
import { type DeviceIdentity, signDevice } from "./device-identity.js";
import { GatewayError } from "./errors.js";
import { type EventFrame, PROTOCOL_VERSION, parseFrame, type ResponseFrame } from "./frames.js";

/** What the Gateway answers `connect` with (the fields clawtools reads; the rest is kept). */
export interface HelloOk {
  type: "hello-ok";
  protocol: number;
  server: { version: string; connId?: string };
  features: { methods: string[]; events: string[] };
  auth: { role: string; scopes: string[]; deviceToken?: string };
  policy: { maxPayload?: number; tickIntervalMs?: number };
  [key: string]: unknown;
}

export interface GatewayClientOptions {
  /** `ws://host:port` or `wss://…`. */
  url: string;
  /** The Gateway's shared token (`--auth token`). */
  token?: string;
  password?: string;
  /** Signs the challenge; without one the Gateway only admits a loopback backend client. */
  identity?: DeviceIdentity;
  /** Default: operator.admin, operator.read, operator.write. */
  scopes?: string[];
  clientVersion?: string;
  displayName?: string;
  /** Default 30 s; a request may set its own. */
  requestTimeoutMs?: number;
  /** How long the handshake (challenge, then hello-ok) may take; default 20 s. */
  connectTimeoutMs?: number;
  /** Reconnect after a dropped connection, backing off from `minMs` to `maxMs`; false: never. */
  reconnect?: false | { minMs?: number; maxMs?: number };
  clock?: Clock;
  /** Where the client says what it does (connected, reconnecting); secrets are redacted. */
  log?: (line: string) => void;
}

interface Pending {
  method: string;
  resolve: (payload: unknown) => void;
  reject: (error: Error) => void;
  expectFinal: boolean;
  timer: unknown;
}

export const DEFAULT_SCOPES = ["operator.admin", "operator.read", "operator.write"];
const CLIENT_ID = "gateway-client";

/**
 * A connect answer that means "not yet", never "no": the Gateway's UNAVAILABLE (`gateway starting;
 * retry shortly` while it boots or restarts). A refusal (bad token, wrong protocol) is not one.
 */
export function isStartingAnswer(code: string): boolean {
  return code === "UNAVAILABLE";
}
const CLIENT_MODE = "backend";

/**
 * One operator connection to an OpenClaw Gateway: the challenge handshake, requests matched to
 * responses by id (they may arrive out of order), events, and a reconnect with backoff when the
 * connection drops. A request in flight when it drops fails (`CLOSED`, retryable): it may have
 * run, so it is never sent twice; requests made while reconnecting wait for the new connection.
 */
export class GatewayClient {
  #options: GatewayClientOptions;
  #clock: Clock;
  #socket: WebSocket | undefined;
  #ready: Promise<HelloOk> | undefined;
  #hello: HelloOk | undefined;
  #pending = new Map<string, Pending>();
  #listeners = new Map<string, Set<(payload: unknown, frame: EventFrame) => void>>();
  #nextId = 0;
  #closed = false;
  #retry = 0;
  /** Reconnecting is for a connection that once stood; a first connect that fails is the caller's. */
  #everConnected = false;
  #reconnectTimer: unknown;
  /** Why the last connection attempt failed for good (bad token, unpaired device). */
  #fatal: GatewayError | undefined;

  constructor(options: GatewayClientOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new Error(`gateway url is not a URL: "${options.url}" (expected ws://HOST:PORT)`);
    }
    if (url.protocol !== "ws:" && url.protocol !== "wss:")
      throw new Error(`gateway url must be ws:// or wss://, got "${options.url}"`);
    registerSecret(options.token);
    registerSecret(options.password);
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** The Gateway's hello-ok of the current connection. */
  get hello(): HelloOk | undefined {
    return this.#hello;
  }

  get connected(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN && this.#hello !== undefined;
  }

  /** Connects (once; later calls share the attempt) and answers the hello-ok. */
  connect(): Promise<HelloOk> {
    if (this.#closed) return Promise.reject(new GatewayError("CLOSED", "the client is closed"));
    if (this.#fatal) return Promise.reject(this.#fatal);
    this.#ready ??= this.#open();
    return this.#ready;
  }

  /** Calls `method`; rejects with the Gateway's error (code and message) or TIMEOUT / CLOSED. */
  async request<T = unknown>(
    method: string,
    params: unknown = {},
    options: { timeoutMs?: number; signal?: AbortSignal; expectFinal?: boolean } = {},
  ): Promise<T> {
    options.signal?.throwIfAborted();
    await this.connect();
    const socket = this.#socket;
    if (!socket || socket.readyState !== WebSocket.OPEN)
      throw new GatewayError("CLOSED", "the connection closed", { method, retryable: true });
    const id = `c${++this.#nextId}`;
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs ?? 30_000;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => settle(() => reject(options.signal?.reason));
      const settle = (fn: () => void) => {
        const entry = this.#pending.get(id);
        if (!entry) return;
        this.#pending.delete(id);
        this.#clock.clearTimeout(entry.timer);
        options.signal?.removeEventListener("abort", onAbort);
        fn();
      };
      const timer = this.#clock.setTimeout(
        () =>
          settle(() =>
            reject(
              new GatewayError("TIMEOUT", `no answer within ${timeoutMs} ms`, { method, retryable: true }),
            ),
          ),
        timeoutMs,
      );
      this.#pending.set(id, {
        method,
        expectFinal: options.expectFinal ?? false,
        timer,
        resolve: (payload) => settle(() => resolve(payload as T)),
        reject: (error) => settle(() => reject(error)),
      });
      options.signal?.addEventListener("abort", onAbort, { once: true });
      socket.send(JSON.stringify({ type: "req", id, method, params }), (error) => {
        if (error)
          this.#pending
            .get(id)
            ?.reject(new GatewayError("CLOSED", error.message, { method, retryable: true }));
      });
    });
  }

  /** Listens to a Gateway event (`*` for all); returns the unsubscribe. */
  on(event: string, listener: (payload: unknown, frame: EventFrame) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    set.add(listener);
    this.#listeners.set(event, set);
    return () => set.delete(listener);
  }

  /** Closes the connection for good: pending requests fail with CLOSED, no reconnect. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#clock.clearTimeout(this.#reconnectTimer);
    this.#failPending(new GatewayError("CLOSED", "the client was closed"));
    const socket = this.#socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once("close", () => resolve());
      socket.close(1000);
      // a peer that never answers the close handshake is cut off
      this.#clock.setTimeout(() => socket.terminate(), 2_000);
    });
  }

  #log(line: string): void {
    this.#options.log?.(redactSecrets(line));
  }

  #failPending(error: GatewayError): void {
    for (const entry of [...this.#pending.values()])
      entry.reject(
        new GatewayError(error.code, error.message.replace(/^gateway: [A-Z_]+: /, ""), {
          method: entry.method,
          retryable: error.retryable,
        }),
      );
  }

  /** One connection attempt: socket open, challenge, connect, hello-ok. */
  #open(): Promise<HelloOk> {
    const o = this.#options;
    return new Promise<HelloOk>((resolve, reject) => {
      const socket = new WebSocket(o.url, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
      this.#socket = socket;
      let handshakeDone = false;
      const fail = (error: GatewayError) => {
        if (handshakeDone) return;
        handshakeDone = true;
        this.#clock.clearTimeout(timer);
        // a refusal that will not change on retry (bad token, unknown device) ends reconnecting
        if (!error.retryable) this.#fatal = error;
        socket.terminate();
        reject(error);
      };
      const connectTimeoutMs = o.connectTimeoutMs ?? 20_000;
      const timer = this.#clock.setTimeout(
        () =>
          fail(
            new GatewayError("CONNECT_FAILED", `no hello from ${o.url} within ${connectTimeoutMs} ms`, {
              retryable: true,
            }),
          ),
        connectTimeoutMs,
      );
      socket.on("error", (error) =>
        fail(new GatewayError("CONNECT_FAILED", `${o.url}: ${error.message}`, { retryable: true })),
      );
      socket.on("close", (code, reason) => {
        fail(
          new GatewayError(
            "CONNECT_FAILED",
            `${o.url} closed the connection during the handshake (${code}${reason.length ? ` ${reason}` : ""})`,
            { retryable: code !== 1008 },
          ),
        );
        if (this.#socket === socket) this.#dropped(code, reason.toString());
      });
      socket.on("message", (data, isBinary) => {
        if (isBinary) return fail(new GatewayError("PROTOCOL", "binary frame from the gateway"));
        let frame: ReturnType<typeof parseFrame>;
        try {
          frame = parseFrame(data.toString());
        } catch (error) {
          this.#log(`gateway: ignored a malformed frame: ${(error as Error).message}`);
          return;
        }
        if (!handshakeDone) {
          if (frame.type === "event" && frame.event === "connect.challenge") {
            const p = frame.payload as { nonce?: unknown; ts?: unknown } | undefined;
            if (typeof p?.nonce !== "string" || !Number.isInteger(p.ts) || (p.ts as number) < 0)
              return fail(new GatewayError("PROTOCOL", "connect.challenge without a nonce and ts"));
            socket.send(
              JSON.stringify({
                type: "req",
                id: "connect",
                method: "connect",
                params: this.#connectParams(p.nonce, p.ts as number),
              }),
            );
            return;
          }
          if (frame.type === "res" && frame.id === "connect") {
            if (!frame.ok) {
              const e = frame.error ?? { code: "CONNECT_FAILED", message: "connect refused" };
              return fail(
                new GatewayError(e.code, e.message, {
                  method: "connect",
                  details: e.details,
                  // "UNAVAILABLE: gateway starting; retry shortly" is a Gateway still booting
                  // (or restarting), not a refusal: it may be dialled again
                  retryable: e.retryable === true || isStartingAnswer(e.code),
                  ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
                }),
              );
            }
            handshakeDone = true;
            this.#clock.clearTimeout(timer);
            this.#hello = frame.payload as HelloOk;
            this.#retry = 0;
            this.#everConnected = true;
            this.#log(
              `gateway: connected to ${o.url} (server ${this.#hello.server?.version ?? "?"}, protocol ${this.#hello.protocol})`,
            );
            resolve(this.#hello);
          }
          return;
        }
        if (frame.type === "res") this.#onResponse(frame);
        else this.#onEvent(frame);
      });
    }).catch((error: GatewayError) => {
      this.#ready = undefined;
      throw error;
    });
  }

  #connectParams(nonce: string, ts: number) {
    const o = this.#options;
    const scopes = o.scopes ?? DEFAULT_SCOPES;
    const platform = osPlatform();
    const secret = o.token ?? o.password ?? "";
    return {
      minProtocol: PROTOCOL_VERSION,
      maxProtocol: PROTOCOL_VERSION,
      client: {
        id: CLIENT_ID,
        version: o.clientVersion ?? "0.0.0",
        platform,
        mode: CLIENT_MODE,
        ...(o.displayName ? { displayName: o.displayName } : {}),
      },
      role: "operator",
      scopes,
      caps: [],
      commands: [],
      permissions: {},
      auth: o.token ? { token: o.token } : o.password ? { password: o.password } : {},
      ...(o.identity
        ? {
            device: signDevice(o.identity, {
              clientId: CLIENT_ID,
              clientMode: CLIENT_MODE,
              role: "operator",
              scopes,
              signedAtMs: ts,
              token: secret,
              nonce,
              platform,
              deviceFamily: "",
            }),
          }
        : {}),
    };
  }

  #onResponse(frame: ResponseFrame): void {
    const entry = this.#pending.get(frame.id);
    if (!entry) return;
    if (!frame.ok) {
      const e = frame.error ?? { code: "UNKNOWN", message: "request failed without an error" };
      entry.reject(
        new GatewayError(e.code, e.message, {
          method: entry.method,
          details: e.details,
          retryable: e.retryable ?? false,
          ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
        }),
      );
      return;
    }
    const status = (frame.payload as { status?: unknown } | undefined)?.status;
    // `agent` answers `accepted` first; a caller that wants the final answer keeps waiting
    if (entry.expectFinal && status === "accepted") return;
    entry.resolve(frame.payload);
  }

  #onEvent(frame: EventFrame): void {
    for (const key of [frame.event, "*"])
      for (const listener of this.#listeners.get(key) ?? []) {
        try {
          listener(frame.payload, frame);
        } catch (error) {
          this.#log(`gateway: a listener of ${frame.event} threw: ${(error as Error).message}`);
        }
      }
  }

  /** The connection dropped after (or during) the handshake: fail what was in flight, then reconnect. */
  #dropped(code: number, reason: string): void {
    this.#socket = undefined;
    this.#hello = undefined;
    this.#ready = undefined;
    this.#failPending(
      new GatewayError("CLOSED", `the connection closed (${code}${reason ? ` ${reason}` : ""})`, {
        retryable: true,
      }),
    );
    const policy = this.#options.reconnect;
    if (this.#closed || policy === false || this.#fatal || !this.#everConnected) return;
    const wait = backoffDelay(++this.#retry, policy?.minMs ?? 500, policy?.maxMs ?? 15_000);
    this.#log(`gateway: connection closed (${code}); reconnecting in ${wait} ms`);
    this.#clock.clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = this.#clock.setTimeout(() => {
      if (this.#closed || this.#ready) return;
      this.connect().catch((error: Error) => this.#log(`gateway: reconnect failed: ${error.message}`));
    }, wait);
  }
}
