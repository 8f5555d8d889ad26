// The built CLI's `serve` on stdio driven with raw JSON-RPC lines, as a 2026-07-28 host writes
// them (the 1.x SDK client has no such revision): every request carries the per-request envelope.
import { type ChildProcess, spawn } from "node:child_process";
import { bin } from "./cli.js";

/** The `_meta` a 2026-07-28 request carries instead of an initialize handshake. */
export const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "listen-e2e", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export type Message = Record<string, any>;

export interface RawStdio {
  child: ChildProcess;
  /** Sends a request (the envelope added) and resolves with its answer. */
  ask(method: string, params?: Record<string, unknown>): Promise<Message>;
  /** Opens a subscriptions/listen stream with this filter; returns its id (its notifications' stamp). */
  listen(filter: Record<string, unknown>): number;
  /** Sends a notification as it is. */
  notify(method: string, params: Record<string, unknown>): void;
  /** Every notification received so far, in order. */
  notifications: Message[];
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Ends serve's input and resolves with its exit code once its pipes are closed. */
  close(): Promise<number | null>;
}

export function rawStdio(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): RawStdio {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const waiting = new Map<number, (m: Message) => void>();
  const notifications: Message[] = [];
  let stderr = "";
  let buffer = "";
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  child.stdout!.on("data", (d) => {
    buffer += String(d);
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, nl)) as Message;
      buffer = buffer.slice(nl + 1);
      if ("id" in message && !("method" in message)) waiting.get(message.id as number)?.(message);
      else notifications.push(message);
    }
  });
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  let last = 0;
  const send = (method: string, params: Record<string, unknown>) => {
    const id = ++last;
    const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: ENVELOPE } };
    child.stdin!.write(`${JSON.stringify(body)}\n`);
    return id;
  };
  return {
    child,
    ask(method, params = {}) {
      // registered in the turn that writes the request: its answer cannot arrive first
      return new Promise((resolve) => waiting.set(send(method, params), resolve));
    },
    listen: (filter) => send("subscriptions/listen", { notifications: filter }),
    notify(method, params) {
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
    },
    notifications,
    stderr: () => stderr,
    close() {
      child.stdin!.end();
      return closed;
    },
  };
}
