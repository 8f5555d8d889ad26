import { ToolInputError } from "@clawtools/core";
import { registerSecret } from "@clawtools/core/safety";
import type { Channel, ChannelResult, MessageRequest } from "../channel.js";
import { unsupported } from "../channel.js";
import { ChannelApiError, describe, type Outgoing, send, trimSlash } from "../http.js";

export interface SlackOptions {
  token: string;
  baseUrl?: string;
  defaultTo?: string;
}

/** Slack's per-file upload limit (api.slack.com/methods/files.getUploadURLExternal): 1 GB. */
const FILE_MAX = 1024 * 1024 * 1024;

type SlackBody = {
  ok?: boolean;
  error?: string;
  ts?: string;
  channel?: string;
  upload_url?: string;
  file_id?: string;
  files?: Array<{ id: string }>;
};

/**
 * Slack over the Web API (`<base>/<method>`, Bearer token): chat.postMessage (threads with
 * `thread_ts`), reactions.add, and uploads through files.getUploadURLExternal → the upload URL →
 * files.completeUploadExternal.
 */
export function createSlackChannel(options: SlackOptions): Channel {
  const base = trimSlash(options.baseUrl ?? "https://slack.com/api");
  // the token is a secret of the process: no result, error or log carries it
  registerSecret(options.token);
  const auth = { authorization: `Bearer ${options.token}` };
  const thread = (req: MessageRequest) => req.threadId ?? (req.action === "reply" ? req.replyTo : undefined);

  function first(req: MessageRequest): Outgoing {
    switch (req.action) {
      case "send":
      case "reply":
      case "thread-reply": {
        const ts = thread(req);
        if (req.media)
          return {
            method: "POST",
            url: `${base}/files.getUploadURLExternal`,
            headers: auth,
            form: { filename: req.media.filename, length: String(req.media.data.length) },
          };
        return {
          method: "POST",
          url: `${base}/chat.postMessage`,
          headers: auth,
          json: { channel: req.to, text: req.text ?? "", ...(ts ? { thread_ts: ts } : {}) },
        };
      }
      case "react":
        if (!req.messageId || !req.emoji) throw new ToolInputError("react requires messageId and emoji");
        return {
          method: "POST",
          url: `${base}/${req.remove ? "reactions.remove" : "reactions.add"}`,
          headers: auth,
          json: { channel: req.to, timestamp: req.messageId, name: req.emoji.replace(/^:|:$/g, "") },
        };
      default:
        throw new ToolInputError(unsupported(req.action, "slack"));
    }
  }

  const complete = (req: MessageRequest, fileId: string): Outgoing => {
    const ts = thread(req);
    const comment = req.caption ?? req.text;
    return {
      method: "POST",
      url: `${base}/files.completeUploadExternal`,
      headers: auth,
      json: {
        files: [{ id: fileId, title: req.media!.filename }],
        channel_id: req.to,
        ...(comment ? { initial_comment: comment } : {}),
        ...(ts ? { thread_ts: ts } : {}),
      },
    };
  };

  const check = async (out: Outgoing, signal?: AbortSignal): Promise<SlackBody> => {
    const answer = await send(out, signal);
    const body = answer.body as SlackBody;
    if (answer.status >= 400 || body?.ok !== true)
      throw new ChannelApiError("slack", answer.status, body?.error ?? answer.text);
    return body;
  };

  return {
    id: "slack",
    actions: new Set(["send", "reply", "thread-reply", "react"]),
    capabilities: { media: { maxBytes: FILE_MAX, document: true }, threads: true, reactions: true },
    ...(options.defaultTo ? { defaultTarget: options.defaultTo } : {}),
    prepare(req) {
      const steps = [first(req)];
      if (req.media && req.action !== "react") {
        steps.push({ method: "POST", url: "<upload_url from files.getUploadURLExternal>", raw: req.media });
        steps.push(complete(req, "<file_id from files.getUploadURLExternal>"));
      }
      return steps.map((s) => describe(s, [options.token]));
    },
    async execute(req, signal): Promise<ChannelResult> {
      if (req.media && req.action !== "react") {
        if (req.media.data.length > FILE_MAX)
          throw new ToolInputError(`slack cannot take files over 1 GB (${req.media.filename}).`);
        const ticket = await check(first(req), signal);
        if (!ticket.upload_url || !ticket.file_id)
          throw new ChannelApiError(
            "slack",
            200,
            "files.getUploadURLExternal answered without upload_url or file_id",
          );
        const uploaded = await send({ method: "POST", url: ticket.upload_url, raw: req.media }, signal);
        if (uploaded.status >= 400) throw new ChannelApiError("slack", uploaded.status, uploaded.text);
        await check(complete(req, ticket.file_id), signal);
        return { messageId: ticket.file_id, chatId: req.to, fileId: ticket.file_id };
      }
      const body = await check(first(req), signal);
      if (req.action === "react") return { messageId: req.messageId!, chatId: req.to };
      return { messageId: body.ts ?? "", chatId: body.channel ?? req.to };
    },
  };
}
