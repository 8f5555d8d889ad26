import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { createReadStream } from "node:fs";
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { withWriteLock } from "@clawtools/core/safety";
import type { Channel, ChannelResult, MessageRequest } from "../channel.js";
import { unsupported } from "../channel.js";

/** One line of the inbox log. */
export interface InboxEntry {
  id: string;
  ts: string;
  action: string;
  to: string;
  text?: string;
  caption?: string;
  replyTo?: string;
  threadId?: string;
  media?: { path: string; filename: string; contentType: string; bytes: number };
}

export interface InboxChannel extends Channel {
  /** `message` events carry each entry as it is appended, for the app to deliver. */
  readonly events: EventEmitter;
  readonly logPath: string;
}

const READ_DEFAULT = 20;
const READ_MAX = 200;

/**
 * The channel that needs no account: an append-only JSONL log under the state directory
 * (`messaging/inbox.jsonl`, attachments beside it), an event per message, and `read` / `search`
 * over the log, streamed so a large log is read in constant memory.
 */
export function createInboxChannel(options: { stateDir: string; defaultTo?: string }): InboxChannel {
  const dir = path.join(options.stateDir, "messaging");
  const logPath = path.join(dir, "inbox.jsonl");
  const events = new EventEmitter();

  async function scan(filter: (entry: InboxEntry) => boolean, limit: number): Promise<InboxEntry[]> {
    const found: InboxEntry[] = [];
    let stream: ReturnType<typeof createReadStream>;
    try {
      stream = createReadStream(logPath, { encoding: "utf8" });
      await new Promise<void>((resolve, reject) => {
        stream.once("open", () => resolve());
        stream.once("error", reject);
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    for await (const line of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!line) continue;
      let entry: InboxEntry;
      try {
        entry = JSON.parse(line) as InboxEntry;
      } catch {
        continue; // a torn last line from a crash is skipped, never fatal
      }
      if (!filter(entry)) continue;
      found.push(entry);
      if (found.length > limit) found.shift();
    }
    return found;
  }

  return {
    id: "inbox",
    actions: new Set(["send", "reply", "thread-reply", "read", "search"]),
    capabilities: {
      media: { maxBytes: Number.POSITIVE_INFINITY, voice: true, document: true },
      threads: true,
    },
    ...(options.defaultTo ? { defaultTarget: options.defaultTo } : {}),
    events,
    logPath,
    prepare(req) {
      if (req.action === "read" || req.action === "search") return [];
      if (!["send", "reply", "thread-reply"].includes(req.action))
        throw new Error(unsupported(req.action, "inbox"));
      return [
        {
          method: "POST",
          url: `file://${logPath}`,
          headers: {},
          json: {
            action: req.action,
            to: req.to,
            ...(req.text !== undefined ? { text: req.text } : {}),
            ...(req.media
              ? {
                  media: {
                    filename: req.media.filename,
                    contentType: req.media.contentType,
                    bytes: req.media.data.length,
                  },
                }
              : {}),
            ...(req.replyTo ? { replyTo: req.replyTo } : {}),
            ...(req.threadId ? { threadId: req.threadId } : {}),
          },
        },
      ];
    },
    async execute(req: MessageRequest): Promise<ChannelResult> {
      const limit = Math.min(Math.max(1, Math.floor(req.limit ?? READ_DEFAULT)), READ_MAX);
      if (req.action === "read") {
        const messages = await scan((e) => !req.to || e.to === req.to, limit);
        return { messages, count: messages.length };
      }
      if (req.action === "search") {
        const needle = (req.query ?? "").toLowerCase();
        const messages = await scan(
          (e) =>
            (!req.to || e.to === req.to) &&
            `${e.text ?? ""} ${e.caption ?? ""}`.toLowerCase().includes(needle),
          limit,
        );
        return { messages, count: messages.length };
      }
      if (!["send", "reply", "thread-reply"].includes(req.action))
        throw new Error(unsupported(req.action, "inbox"));
      const id = randomUUID();
      await mkdir(dir, { recursive: true });
      let media: InboxEntry["media"];
      if (req.media) {
        const file = path.join(dir, "media", `${id}-${path.basename(req.media.filename)}`);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, req.media.data);
        media = {
          path: file,
          filename: req.media.filename,
          contentType: req.media.contentType,
          bytes: req.media.data.length,
        };
      }
      const entry: InboxEntry = {
        id,
        ts: new Date().toISOString(),
        action: req.action,
        to: req.to,
        ...(req.text !== undefined ? { text: req.text } : {}),
        ...(req.caption ? { caption: req.caption } : {}),
        ...(req.replyTo ? { replyTo: req.replyTo } : {}),
        ...(req.threadId ? { threadId: req.threadId } : {}),
        ...(media ? { media } : {}),
      };
      // one line per append, serialised, so concurrent sends never interleave
      await withWriteLock(logPath, () => appendFile(logPath, `${JSON.stringify(entry)}\n`));
      events.emit("message", entry);
      return { messageId: id, chatId: req.to };
    },
  };
}
