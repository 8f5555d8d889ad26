import { MessageIdScanner } from "./message-scan.js";

/**
 * The largest message a mounted stdio MCP server may send (64 MiB, as `serve` reads from its own
 * clients). The SDK client's default is 10 MiB and it drops the connection past it; here a
 * message up to this size is read (the served result is then cut at the result limit with the
 * usual notice), and a larger one is answered, for the call it belongs to, with an error naming
 * the limit, while the connection stays up.
 */
export const MOUNTED_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The error a call gets when the server's answer to it was over the limit. */
export function answerTooLargeMessage(size: number, limit: number): string {
  return (
    `The MCP server's answer was too large: more than ${limit.toLocaleString("en-US")} bytes ` +
    `(${size.toLocaleString("en-US")} bytes read), over clawtools' limit for one message from a mounted server. ` +
    "Ask the tool for less at a time."
  );
}

/**
 * Splits a stdio stream into JSON-RPC messages, one per line, in time linear in its length (the
 * SDK's buffer copies everything it holds on each chunk, quadratic on a 50 MB line). Same shape
 * as the SDK's `ReadBuffer`: `append`, `readMessage`, `clear`.
 */
export class StdioLineBuffer {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping: MessageIdScanner | undefined;
  /** Whole lines not yet parsed, or a message made here (the error for an answer too large). */
  private readonly ready: Array<string | { made: unknown }> = [];

  constructor(
    private readonly max: number,
    /** Parses one line; throws SyntaxError for a line that is not JSON (skipped, as the SDK does). */
    private readonly parse: (line: string) => unknown,
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  }

  /** The next message, or null; throws for a line that is JSON but not JSON-RPC (the SDK reports it). */
  readMessage(): unknown {
    for (let next = this.ready.shift(); next !== undefined; next = this.ready.shift()) {
      if (typeof next !== "string") return next.made;
      try {
        return this.parse(next);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return null;
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
    this.skipping = undefined;
    this.ready.length = 0;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.skipping) {
      this.skipping.write(piece);
      return;
    }
    if (this.size <= this.max) {
      this.parts.push(piece);
      return;
    }
    // over the limit: keep nothing more, only look for the message's id
    this.skipping = new MessageIdScanner();
    for (const part of this.parts) this.skipping.write(part);
    this.skipping.write(piece);
    this.parts = [];
  }

  private endLine(): void {
    const { skipping, size } = this;
    const line = skipping ? "" : Buffer.concat(this.parts, size).toString("utf8").replace(/\r$/, "");
    this.parts = [];
    this.size = 0;
    this.skipping = undefined;
    if (skipping) {
      const id = skipping.end();
      if (id !== undefined)
        this.ready.push({
          made: {
            jsonrpc: "2.0",
            id,
            error: { code: -32603, message: answerTooLargeMessage(size, this.max) },
          },
        });
      return;
    }
    if (line.trim()) this.ready.push(line);
  }
}
