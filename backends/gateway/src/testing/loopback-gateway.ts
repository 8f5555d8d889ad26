import { type WebSocket, WebSocketServer } from "ws";
import { PROTOCOL_VERSION } from "../frames.js";

/** What the stand-in answers a `connect` with: hello-ok, or an error frame (then it closes). */
export type ConnectAnswer = { ok: true } | { ok: false; code: string; message: string; retryable?: boolean };

export interface LoopbackGatewayOptions {
  /** Decides each `connect` (`n` counts connects since the last (re)start, from 1); default hello-ok. */
  onConnect?: (params: Record<string, unknown>, n: number) => ConnectAnswer;
  /** Answers a request after the handshake; default: `{}` (and a main agent for `agents.list`). */
  onRequest?: (method: string, params: unknown) => unknown;
}

export interface LoopbackGateway {
  url: string;
  port: number;
  /** Connects seen since the last (re)start. */
  connects(): number;
  /** Drops every connection and stops listening; `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A WebSocket server on loopback that speaks the OpenClaw Gateway's handshake (challenge, then
 * `connect` answered by hello-ok or by an error frame as a refusing or starting Gateway sends
 * it), for testing how clients behave when a Gateway refuses, is starting, or restarts.
 */
export async function startLoopbackGateway(options: LoopbackGatewayOptions = {}): Promise<LoopbackGateway> {
  let server: WebSocketServer | undefined;
  let port = 0;
  let count = 0;
  const sockets = new Set<WebSocket>();
  const listen = async () => {
    count = 0;
    const s = new WebSocketServer({ host: "127.0.0.1", port });
    await new Promise<void>((resolve, reject) => {
      s.once("listening", () => resolve());
      s.once("error", reject);
    });
    port = (s.address() as { port: number }).port;
    s.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.send(
        JSON.stringify({
          type: "event",
          event: "connect.challenge",
          payload: { nonce: `n${count}`, ts: Date.now() },
        }),
      );
      socket.on("message", (data) => {
        let frame: { id?: string; method?: string; params?: unknown };
        try {
          frame = JSON.parse(String(data));
        } catch {
          return;
        }
        if (frame.method === "connect") {
          const answer = options.onConnect?.((frame.params ?? {}) as Record<string, unknown>, ++count) ?? {
            ok: true,
          };
          if (!answer.ok) {
            const { code, message, retryable } = answer;
            socket.send(
              JSON.stringify({
                type: "res",
                id: frame.id,
                ok: false,
                error: { code, message, ...(retryable !== undefined ? { retryable } : {}) },
              }),
            );
            socket.close(1008, "connect failed");
            return;
          }
          socket.send(
            JSON.stringify({
              type: "res",
              id: frame.id,
              ok: true,
              payload: {
                type: "hello-ok",
                protocol: PROTOCOL_VERSION,
                server: { version: "loopback" },
                features: { methods: [], events: [] },
                auth: { role: "operator", scopes: [] },
                policy: {},
              },
            }),
          );
          return;
        }
        const payload =
          options.onRequest?.(String(frame.method), frame.params) ??
          (frame.method === "agents.list"
            ? { defaultId: "main", mainKey: "main", agents: [{ id: "main" }] }
            : {});
        socket.send(JSON.stringify({ type: "res", id: frame.id, ok: true, payload }));
      });
    });
    server = s;
  };
  await listen();
  return {
    get url() {
      return `ws://127.0.0.1:${port}`;
    },
    port,
    connects: () => count,
    async stop() {
      for (const socket of sockets) socket.terminate();
      sockets.clear();
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    start: listen,
  };
}
