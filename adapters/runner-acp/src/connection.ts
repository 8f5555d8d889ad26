import type { Readable, Writable } from "node:stream";
import { type Clock, systemClock } from "@clawtools/core/time";
import { AcpConnectionError, AcpRpcError } from "./errors.js";

export { AcpConnectionError, AcpRpcError, isAcpConnectionError, isAcpRpcError } from "./errors.js";

/** Handles a request the agent sends to the client; a thrown AcpRpcError becomes the error answer. */
export type RequestHandler = (method: string, params: unknown) => Promise<unknown>;
export type NotificationHandler = (method: string, params: unknown) => void;

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: unknown;
}

/** Longest line accepted from the agent (a session/update with a big diff still fits). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const preview = (line: string) =>
  JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line) +
  (line.length > 120 ? ` (${line.length} characters)` : "");

/**
 * ACP's transport: newline-delimited JSON-RPC 2.0 over a pair of streams (the agent's stdout
 * and stdin). Requests go both ways; the first line that is not a JSON-RPC message ends the
 * connection (the protocol allows nothing else on stdout), and every pending request then fails
 * with the reason instead of waiting forever.
 */
export class AcpConnection {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private buffer = "";
  private closedWith: Error | undefined;
  private readonly closeListeners: ((error: Error) => void)[] = [];

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly onRequest: RequestHandler,
    private readonly onNotification: NotificationHandler,
    private readonly clock: Clock = systemClock,
  ) {
    input.setEncoding("utf8");
    input.on("data", (chunk: string) => this.receive(chunk));
    input.on("end", () => this.close(new AcpConnectionError("the ACP agent closed its output", "ended")));
    input.on("error", (error) =>
      this.close(new AcpConnectionError(`reading from the ACP agent failed: ${error.message}`, "ended")),
    );
    output.on("error", (error) =>
      this.close(new AcpConnectionError(`writing to the ACP agent failed: ${error.message}`, "ended")),
    );
  }

  /** The reason the connection ended, once it has. */
  get closed(): Error | undefined {
    return this.closedWith;
  }

  onClose(listener: (error: Error) => void): void {
    if (this.closedWith) listener(this.closedWith);
    else this.closeListeners.push(listener);
  }

  /** Sends a request; rejects with the agent's error, on `timeoutMs`, or when the connection ends. */
  request<T = unknown>(method: string, params: unknown, timeoutMs?: number): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      if (timeoutMs && timeoutMs > 0)
        entry.timer = this.clock.setTimeout(() => {
          this.pending.delete(id);
          reject(
            new AcpConnectionError(
              `the ACP agent did not answer ${method} within ${timeoutMs} ms`,
              "timeout",
            ),
          );
        }, timeoutMs);
      this.pending.set(id, entry);
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    if (!this.closedWith) this.send({ jsonrpc: "2.0", method, params });
  }

  /** Ends the connection: pending requests fail with `error`. Idempotent. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    for (const [id, entry] of this.pending) {
      if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
      this.pending.delete(id);
      entry.reject(error);
    }
    for (const listener of this.closeListeners.splice(0)) listener(error);
  }

  private send(message: object): void {
    try {
      this.output.write(`${JSON.stringify(message)}\n`);
    } catch (error) {
      this.close(
        new AcpConnectionError(`writing to the ACP agent failed: ${(error as Error).message}`, "ended"),
      );
    }
  }

  private receive(chunk: string): void {
    if (this.closedWith) return;
    this.buffer += chunk;
    let newline = this.buffer.indexOf("\n");
    while (newline !== -1 && !this.closedWith) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, "");
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() !== "") this.dispatch(line);
      newline = this.buffer.indexOf("\n");
    }
    if (this.buffer.length > MAX_LINE_BYTES)
      this.close(
        new AcpConnectionError(
          `the ACP agent wrote a line longer than ${MAX_LINE_BYTES} bytes without a newline`,
          "protocol",
        ),
      );
  }

  private malformed(line: string, why: string): void {
    this.close(
      new AcpConnectionError(
        `the ACP agent wrote a line that is not JSON-RPC (${why}): ${preview(line)}`,
        "protocol",
      ),
    );
  }

  private dispatch(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line);
    } catch {
      this.malformed(line, "not JSON");
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.malformed(line, "not an object");
      return;
    }
    if (message.jsonrpc !== "2.0") {
      this.malformed(line, 'no "jsonrpc": "2.0"');
      return;
    }
    const { id, method } = message;
    const hasId = typeof id === "number" || typeof id === "string";
    if (typeof method === "string") {
      if (!hasId) {
        this.onNotification(method, message.params);
        return;
      }
      this.onRequest(method, message.params).then(
        (result) => this.send({ jsonrpc: "2.0", id, result: result ?? null }),
        (error: Error) => {
          const code = error instanceof AcpRpcError ? error.code : -32603;
          this.send({ jsonrpc: "2.0", id, error: { code, message: error.message } });
        },
      );
      return;
    }
    if (!hasId) {
      const err = message.error as { message?: unknown } | undefined;
      if (id === null && err && typeof err.message === "string")
        this.close(
          new AcpConnectionError(
            `the ACP agent answered with an error it could not tie to a request: ${err.message}`,
            "protocol",
          ),
        );
      else this.malformed(line, "neither a request, a notification nor a response");
      return;
    }
    const entry = this.pending.get(Number(id));
    if (!entry) return; // an answer to a request that already timed out
    this.pending.delete(Number(id));
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    if ("error" in message && message.error) {
      const err = message.error as { code?: unknown; message?: unknown; data?: unknown };
      entry.reject(
        new AcpRpcError(
          typeof err.code === "number" ? err.code : -32603,
          typeof err.message === "string" ? err.message : "unknown error",
          err.data,
        ),
      );
    } else if ("result" in message) entry.resolve(message.result);
    else this.malformed(line, "a response with neither result nor error");
  }
}
