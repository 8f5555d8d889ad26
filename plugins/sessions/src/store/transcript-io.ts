import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import { redactValue } from "@clawtools/core/safety";
import type { TranscriptMessage } from "../types.js";
import { linesFromEnd } from "./tail.js";

/** Starts a pi-format transcript with its `session` header line. */
export function appendHeader(file: string, sessionId: string, now: number, cwd: string): void {
  const header = { type: "session", version: 3, id: sessionId, timestamp: new Date(now).toISOString(), cwd };
  try {
    appendFileSync(file, `${JSON.stringify(header)}\n`);
  } catch {
    // not fatal: a transcript without its header line still reads (history skips it)
  }
}

/**
 * Appends the messages to a pi-format transcript as `message` lines, in one synchronous call (a
 * line is small; an asynchronous append is three trips through the thread pool). The caller
 * holds the file's write lock.
 */
export function appendMessages(file: string, messages: TranscriptMessage[], idempotencyKey?: string): true {
  const lines = messages.map((message) =>
    JSON.stringify({
      type: "message",
      id: randomUUID().slice(0, 8),
      timestamp: new Date(message.timestamp).toISOString(),
      // the secrets the process knows never land in a transcript
      message: redactValue(message),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    }),
  );
  appendFileSync(file, `${lines.join("\n")}\n`);
  return true;
}

/**
 * The newest `limit` messages of a transcript, oldest first, read from its end (a long transcript
 * costs what its tail costs); stops once `maxBytes` of lines were kept. Lines that are not
 * messages (the header, a torn line) are skipped.
 */
export async function readNewest(
  file: string,
  options: { limit?: number; maxBytes?: number },
): Promise<TranscriptMessage[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const out: TranscriptMessage[] = [];
  let bytes = 0;
  for await (const line of linesFromEnd(file)) {
    if (out.length >= limit || (options.maxBytes !== undefined && bytes > options.maxBytes)) break;
    let parsed: { type?: string; message?: TranscriptMessage };
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (parsed.type !== "message" || !parsed.message) continue;
    bytes += line.length;
    out.push(parsed.message);
  }
  return out.reverse();
}
