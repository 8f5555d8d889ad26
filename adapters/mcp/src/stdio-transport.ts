import { systemClock } from "@clawtools/core/time";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import { checkJsonRpcMessage } from "./jsonrpc-shape.js";
import { MessageIdScanner } from "./message-scan.js";

/** JSON-RPC's codes, as the SDK's `ProtocolErrorCode` has them (not imported: stdio starts without the SDK). */
const ErrorCode = { ParseError: -32700, InvalidRequest: -32600 } as const;

/** 64 MiB: room for a model writing a large file in one call (the SDK's own stdio limit is 10 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface LineTransportOptions {
  /** Largest message accepted; a larger one is answered with an error and skipped. */
  maxMessageBytes?: number;
  /**
   * After end of input, how long requests still running may take to be answered before they
   * are cancelled and the transport closes (default 30 s).
   */
  drainTimeoutMs?: number;
  log?: (message: string) => void;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;

/** The text of the error an oversized message gets. */
export function messageTooLargeMessage(size: number, limit: number): string {
  return (
    `Message too large: ${size.toLocaleString("en-US")} bytes is over this server's limit of ` +
    `${limit.toLocaleString("en-US")} bytes (${mb(limit)}, clawtools serve --max-message-mb). ` +
    "The request was not read; send less in one call (split a large file across several writes or edits)."
  );
}

type Id = string | number;
const key = (id: Id) => `${typeof id}:${id}`;

/**
 * MCP's stdio framing (one JSON-RPC message per line) over any pair of streams, hardened: a
 * message over `maxMessageBytes` is answered with a JSON-RPC error naming the limit and skipped
 * while the server keeps serving; a line that is not JSON-RPC gets a parse error; at end of input
 * the requests still running are answered before the transport closes.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * Reads a parsed line as a JSON-RPC message or throws. By default a check of the shapes MCP's
   * schema accepts (no SDK needed); `serveStdio` swaps in the SDK's own parser once it loads it.
   */
  parseMessage: (raw: unknown) => JSONRPCMessage = checkJsonRpcMessage;

  private readonly max: number;
  private readonly drainTimeoutMs: number;
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Set while skipping an oversized message up to its newline. */
  private oversized: { scanner: MessageIdScanner; bytes: number } | undefined;
  private readonly inFlight = new Set<string>();
  private drained: (() => void) | undefined;
  private drainTimer: unknown;
  private closed = false;
  private ended = false;
  private whenClosed: () => void = () => {};
  /** Resolves once the transport has closed, whoever owns its `onclose` (SDK v2's stdio entry does). */
  readonly done = new Promise<void>((resolve) => {
    this.whenClosed = resolve;
  });

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly options: LineTransportOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!(this.max > 0)) throw new RangeError(`maxMessageBytes must be a positive number, got ${this.max}`);
    this.drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  }

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onInputError);
    this.output.on("error", this.onOutputError);
  }

  /** Requests received and not answered yet. */
  get pending(): number {
    return this.inFlight.size;
  }

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < data.length && !this.closed) {
      const newline = data.indexOf(0x0a, start);
      const end = newline === -1 ? data.length : newline;
      this.take(data.subarray(start, end));
      if (newline === -1) break;
      this.endOfLine();
      start = newline + 1;
    }
  };

  private take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.oversized) {
      this.oversized.scanner.write(bytes);
      this.oversized.bytes += bytes.length;
      return;
    }
    if (this.partBytes + bytes.length > this.max) {
      // over the limit: stop keeping the message, only look for its id
      const scanner = new MessageIdScanner();
      for (const part of this.parts) scanner.write(part);
      scanner.write(bytes);
      this.oversized = { scanner, bytes: this.partBytes + bytes.length };
      this.parts = [];
      this.partBytes = 0;
      return;
    }
    this.parts.push(bytes);
    this.partBytes += bytes.length;
  }

  private endOfLine(): void {
    if (this.oversized) {
      const { scanner, bytes } = this.oversized;
      this.oversized = undefined;
      this.refuse(scanner.end(), bytes);
      return;
    }
    const line = Buffer.concat(this.parts, this.partBytes).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.partBytes = 0;
    if (line.trim() === "") return;
    this.receive(line);
  }

  private refuse(id: Id | undefined, bytes: number): void {
    const message = messageTooLargeMessage(bytes, this.max);
    this.options.log?.(`refused a message of ${bytes} bytes (limit ${this.max})`);
    this.onerror?.(new Error(message));
    // without an id it was a notification (or an answer): nothing to reply to
    if (id === undefined) return;
    this.write({
      jsonrpc: "2.0",
      id,
      error: { code: ErrorCode.InvalidRequest, message, data: { limit: this.max, size: bytes } },
    });
  }

  private receive(line: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      this.write({
        jsonrpc: "2.0",
        id: null,
        error: { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` },
      });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = this.parseMessage(raw);
    } catch {
      this.refuseInvalid(raw);
      return;
    }
    // a listen stream is open until cancelled or the server stops: at end of input nothing waits for it
    if ("method" in message && "id" in message && message.method !== "subscriptions/listen")
      this.inFlight.add(key(message.id));
    if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: Id } | undefined)?.requestId;
      if (requestId !== undefined) this.settle(key(requestId));
    }
    this.onmessage?.(message);
  }

  /** Answers (or, for what is not a request, reports) a message that is not JSON-RPC 2.0. */
  refuseInvalid(raw: unknown): void {
    const { id, method } = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    // never answer what is not a request (an answer to an answer would ping-pong)
    if (typeof method !== "string" || id === undefined) {
      this.onerror?.(new Error("Ignored a message that is not JSON-RPC 2.0"));
      return;
    }
    this.write({
      jsonrpc: "2.0",
      id: typeof id === "string" || typeof id === "number" ? id : null,
      error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: not a JSON-RPC 2.0 message" },
    });
  }

  /** Forgets a request already counted as running (one read again by a later parser, refused). */
  forget(id: Id): void {
    this.settle(key(id));
  }

  private settle(id: string): void {
    this.inFlight.delete(id);
    if (this.inFlight.size === 0) this.drained?.();
  }

  private readonly onEnd = () => {
    if (this.ended) return;
    this.ended = true;
    // a last message without its newline still counts
    if (this.partBytes > 0 || this.oversized) this.endOfLine();
    if (this.inFlight.size === 0) {
      void this.close();
      return;
    }
    this.options.log?.(`input ended; answering ${this.inFlight.size} request(s) still running`);
    this.drainTimer = systemClock.setTimeout(() => {
      this.options.log?.(`requests still running after ${this.drainTimeoutMs} ms: cancelling them`);
      void this.close();
    }, this.drainTimeoutMs);
    this.drained = () => void this.close();
  };

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onOutputError = (error: Error) => {
    // the client is gone (EPIPE): nothing can be answered any more
    this.onerror?.(error);
    void this.close();
  };

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    const json = `${JSON.stringify(message)}\n`;
    return new Promise((resolve) => {
      if (this.output.write(json)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const sent = this.write(message);
    if (("result" in message || "error" in message) && message.id !== undefined && message.id !== null)
      void sent.then(() => this.settle(key(message.id as Id)));
    await sent;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.drainTimer !== undefined) systemClock.clearTimeout(this.drainTimer);
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onInputError);
    this.output.off("error", this.onOutputError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.parts = [];
    this.oversized = undefined;
    this.onclose?.();
    this.whenClosed();
  }
}
