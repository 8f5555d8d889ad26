import { ToolInputError } from "@clawtools/core";
import { registerSecret } from "@clawtools/core/safety";
import type { Channel, ChannelResult, MessageRequest } from "../channel.js";
import { unsupported } from "../channel.js";
import { ChannelApiError, describe, type Outgoing, send, trimSlash } from "../http.js";

export interface DiscordOptions {
  botToken: string;
  baseUrl?: string;
  defaultTo?: string;
}

/** Discord's upload limit for bots without a boosted server: 10 MiB per message. */
const FILE_MAX = 10 * 1024 * 1024;

/**
 * Discord over REST v10 (`Authorization: Bot <token>`): messages (replies through
 * `message_reference`, threads by posting to the thread's channel id), attachments as
 * multipart `payload_json` + `files[0]`, and reactions.
 */
export function createDiscordChannel(options: DiscordOptions): Channel {
  const base = trimSlash(options.baseUrl ?? "https://discord.com/api/v10");
  // the token is a secret of the process: no result, error or log carries it
  registerSecret(options.botToken);
  const auth = { authorization: `Bot ${options.botToken}` };

  function requests(req: MessageRequest): Outgoing[] {
    const channel = req.action === "thread-reply" && req.threadId ? req.threadId : req.to;
    switch (req.action) {
      case "send":
      case "reply":
      case "thread-reply": {
        const payload = {
          content: req.media ? (req.caption ?? req.text ?? "") : (req.text ?? ""),
          ...(req.replyTo ? { message_reference: { message_id: req.replyTo } } : {}),
          ...(req.silent ? { flags: 4096 } : {}),
        };
        const url = `${base}/channels/${encodeURIComponent(channel)}/messages`;
        if (!req.media) return [{ method: "POST", url, headers: auth, json: payload }];
        if (req.media.data.length > FILE_MAX)
          throw new ToolInputError(
            `discord cannot take ${req.media.filename} (${req.media.data.length} bytes): the attachment limit is 10 MiB.`,
          );
        return [
          {
            method: "POST",
            url,
            headers: auth,
            multipart: {
              payload_json: JSON.stringify({
                ...payload,
                attachments: [{ id: 0, filename: req.media.filename }],
              }),
              "files[0]": req.media,
            },
          },
        ];
      }
      case "react": {
        if (!req.messageId || !req.emoji) throw new ToolInputError("react requires messageId and emoji");
        const url = `${base}/channels/${encodeURIComponent(channel)}/messages/${encodeURIComponent(req.messageId)}/reactions/${encodeURIComponent(req.emoji)}/@me`;
        return [{ method: req.remove ? "DELETE" : "PUT", url, headers: auth }];
      }
      default:
        throw new ToolInputError(unsupported(req.action, "discord"));
    }
  }

  return {
    id: "discord",
    actions: new Set(["send", "reply", "thread-reply", "react"]),
    capabilities: { media: { maxBytes: FILE_MAX, document: true }, threads: true, reactions: true },
    ...(options.defaultTo ? { defaultTarget: options.defaultTo } : {}),
    prepare: (req) => requests(req).map((r) => describe(r, [options.botToken])),
    async execute(req, signal): Promise<ChannelResult> {
      const [out] = requests(req);
      const answer = await send(out!, signal);
      if (answer.status >= 400) {
        const body = answer.body as { message?: string } | undefined;
        throw new ChannelApiError("discord", answer.status, body?.message ?? answer.text);
      }
      if (req.action === "react") return { messageId: req.messageId!, chatId: req.to };
      const body = answer.body as { id?: string; channel_id?: string };
      return { messageId: body?.id ?? "", chatId: body?.channel_id ?? req.to };
    },
  };
}
