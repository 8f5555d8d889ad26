import { ToolInputError } from "@clawtools/core";
import { registerSecret } from "@clawtools/core/safety";
import type { Channel, ChannelResult, MessageRequest } from "../channel.js";
import { unsupported } from "../channel.js";
import { ChannelApiError, describe, type Outgoing, send, trimSlash } from "../http.js";

export interface TelegramOptions {
  botToken: string;
  baseUrl?: string;
  defaultTo?: string;
}

/** Bot API limits: photos 10 MB, other uploads 50 MB (core.telegram.org/bots/api#sending-files). */
const PHOTO_MAX = 10 * 1024 * 1024;
const FILE_MAX = 50 * 1024 * 1024;
const VOICE_TYPES = new Set([
  "audio/ogg",
  "audio/opus",
  "audio/mpeg",
  "audio/mp3",
  "audio/mp4",
  "audio/x-m4a",
]);

/**
 * Telegram over the Bot API (`POST <base>/bot<token>/<method>`): text, photo, voice, document,
 * poll, reply (`reply_parameters`) and forum threads (`message_thread_id`).
 */
export function createTelegramChannel(options: TelegramOptions): Channel {
  const base = trimSlash(options.baseUrl ?? "https://api.telegram.org");
  // the token is a secret of the process: no result, error or log carries it
  registerSecret(options.botToken);
  const url = (method: string) => `${base}/bot${options.botToken}/${method}`;

  function requests(req: MessageRequest): Outgoing[] {
    const common = {
      chat_id: req.to,
      ...(req.threadId ? { message_thread_id: Number(req.threadId) } : {}),
      ...(req.replyTo ? { reply_parameters: { message_id: Number(req.replyTo) } } : {}),
      ...(req.silent ? { disable_notification: true } : {}),
    };
    if (req.action === "poll") {
      const poll = req.poll!;
      return [
        {
          method: "POST",
          url: url("sendPoll"),
          json: {
            ...common,
            question: poll.question,
            options: poll.options.map((text) => ({ text })),
            ...(poll.multiple ? { allows_multiple_answers: true } : {}),
          },
        },
      ];
    }
    if (req.action !== "send" && req.action !== "reply" && req.action !== "thread-reply")
      throw new ToolInputError(unsupported(req.action, "telegram"));
    const media = req.media;
    if (!media)
      return [{ method: "POST", url: url("sendMessage"), json: { ...common, text: req.text ?? "" } }];
    const photo = !req.asDocument && !req.asVoice && media.contentType.startsWith("image/");
    if (req.asVoice && !VOICE_TYPES.has(media.contentType))
      throw new ToolInputError(
        `telegram cannot send ${media.contentType} as a voice note (sendVoice takes OGG/Opus, MP3 or M4A); send it as a document instead.`,
      );
    const limit = photo ? PHOTO_MAX : FILE_MAX;
    if (media.data.length > limit)
      throw new ToolInputError(
        `telegram cannot take ${media.filename} (${media.data.length} bytes): the Bot API limit for ${photo ? "photos" : "files"} is ${limit / 1024 / 1024} MB.`,
      );
    const [method, field] = req.asVoice
      ? ["sendVoice", "voice"]
      : photo
        ? ["sendPhoto", "photo"]
        : ["sendDocument", "document"];
    const caption = req.caption ?? req.text;
    const fields: Record<string, string> = Object.fromEntries(
      Object.entries({ ...common, ...(caption ? { caption } : {}) }).map(([k, v]) => [
        k,
        typeof v === "object" ? JSON.stringify(v) : String(v),
      ]),
    );
    return [{ method: "POST", url: url(method!), multipart: { ...fields, [field!]: media } }];
  }

  return {
    id: "telegram",
    actions: new Set(["send", "reply", "thread-reply", "poll"]),
    capabilities: { media: { maxBytes: FILE_MAX, voice: true, document: true }, polls: true, threads: true },
    ...(options.defaultTo ? { defaultTarget: options.defaultTo } : {}),
    prepare: (req) => requests(req).map((r) => describe(r, [options.botToken])),
    async execute(req, signal): Promise<ChannelResult> {
      const [out] = requests(req);
      const answer = await send(out!, signal);
      const body = answer.body as {
        ok?: boolean;
        description?: string;
        result?: { message_id?: number; chat?: { id?: number | string } };
      };
      if (answer.status >= 400 || body?.ok !== true)
        throw new ChannelApiError("telegram", answer.status, body?.description ?? answer.text);
      return {
        messageId: String(body.result?.message_id ?? ""),
        chatId: String(body.result?.chat?.id ?? req.to),
      };
    },
  };
}
