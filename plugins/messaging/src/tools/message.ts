import { randomUUID } from "node:crypto";
import { type AgentTool, jsonResult, type ToolContext, ToolInputError } from "@clawtools/core";
import type { Lookup } from "@clawtools/core/safety";
import type { Channel, MessageAction, MessageRequest } from "../channel.js";
import { unsupported } from "../channel.js";
import { resolveMedia } from "../media.js";
import { buildMessageSchema, describeMessageTool } from "./message-schema.js";
import { wrapInbound } from "./untrusted.js";

export interface MessageToolOptions {
  channels: Channel[];
  defaultChannel?: string;
  broadcast?: boolean;
  workspaceDir?: string;
  mediaMaxBytes: number;
  allowPrivateNetwork?: boolean;
  lookup?: Lookup;
}

type Params = Record<string, unknown>;

export const TARGET_REQUIRED =
  "Explicit message target required for this run. Provide target/targets (and channel when needed).";
export const BROADCAST_DISABLED = "Broadcast is disabled. Set tools.message.broadcast.enabled to true.";
/** OpenClaw's first sentence, then how to configure a channel here. */
export const NO_CHANNELS =
  "Channel is required (no configured channels detected). Configure one under messaging.channels (inbox, webhook, telegram, slack or discord); channels.inbox: {} keeps messages in a log under the state directory.";
export const severalChannels = (ids: string[]) =>
  `Channel is required when multiple channels are configured: ${ids.join(", ")}. Pass channel to choose one.`;

const str = (p: Params, ...keys: string[]) => {
  for (const k of keys) if (typeof p[k] === "string" && (p[k] as string) !== "") return p[k] as string;
  return undefined;
};

// Reasoning a model leaked into its text is never sent (OpenClaw strips these tags too).
const REASONING = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;
const clean = (text: string | undefined) => text?.replace(REASONING, "").trim();

export function createMessageTool(_ctx: ToolContext, options: MessageToolOptions): AgentTool {
  const { channels } = options;
  const byId = new Map(channels.map((c) => [c.id, c]));
  const schema = buildMessageSchema(channels, options.broadcast === true);

  function pickChannel(named: string | undefined): Channel {
    if (named) {
      const channel = byId.get(named);
      if (!channel)
        throw new ToolInputError(
          `Channel ${named.slice(0, 60)} is unavailable for message actions (plugin not loaded).`,
        );
      return channel;
    }
    if (channels.length === 0) throw new ToolInputError(NO_CHANNELS);
    if (channels.length === 1) return channels[0]!;
    const fallback = options.defaultChannel ? byId.get(options.defaultChannel) : undefined;
    if (fallback) return fallback;
    throw new ToolInputError(severalChannels(channels.map((c) => c.id)));
  }

  async function request(
    channel: Channel,
    action: MessageAction,
    to: string,
    p: Params,
    signal?: AbortSignal,
  ): Promise<MessageRequest> {
    const media = await resolveMedia(
      {
        ...(str(p, "media", "path", "filePath") ? { media: str(p, "media", "path", "filePath")! } : {}),
        ...(str(p, "buffer") ? { buffer: str(p, "buffer")! } : {}),
        ...(str(p, "filename") ? { filename: str(p, "filename")! } : {}),
        ...(str(p, "contentType", "mimeType") ? { contentType: str(p, "contentType", "mimeType")! } : {}),
      },
      {
        ...(options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
        maxBytes: options.mediaMaxBytes,
        policy: options.allowPrivateNetwork ? { allowPrivateNetwork: true } : {},
        ...(options.lookup ? { lookup: options.lookup } : {}),
        ...(signal ? { signal } : {}),
      },
    );
    if (media && !channel.capabilities.media)
      throw new ToolInputError(
        `${channel.id} cannot take attachments; ${media.filename} was not sent. Send text only, or use a channel that takes media.`,
      );
    if (media && media.data.length > channel.capabilities.media!.maxBytes)
      throw new ToolInputError(
        `${channel.id} cannot take ${media.filename} (${media.data.length} bytes): its limit is ${channel.capabilities.media!.maxBytes} bytes.`,
      );
    const text = clean(str(p, "message"));
    const caption = clean(str(p, "caption"));
    const options_ = (p.pollOption as unknown[] | undefined)?.map(String).filter(Boolean) ?? [];
    if (action === "poll") {
      if (options_.length < 2) throw new ToolInputError("pollOption requires at least two values");
      if (!str(p, "pollQuestion") && !text) throw new ToolInputError("poll requires pollQuestion");
    }
    if ((action === "send" || action === "reply" || action === "thread-reply") && !text && !media)
      throw new ToolInputError("send requires text or media");
    if (action === "reply" && !str(p, "replyTo")) throw new ToolInputError("reply requires replyTo");
    if (action === "thread-reply" && !str(p, "threadId"))
      throw new ToolInputError("thread-reply requires threadId");
    return {
      action,
      to,
      ...(text ? { text } : {}),
      ...(caption ? { caption } : {}),
      ...(media ? { media } : {}),
      ...(str(p, "replyTo") ? { replyTo: str(p, "replyTo")! } : {}),
      ...(str(p, "threadId") ? { threadId: str(p, "threadId")! } : {}),
      ...(p.silent === true ? { silent: true } : {}),
      ...(p.asVoice === true ? { asVoice: true } : {}),
      ...(p.asDocument === true || p.forceDocument === true ? { asDocument: true } : {}),
      ...(action === "poll"
        ? {
            poll: {
              question: str(p, "pollQuestion") ?? text!,
              options: options_,
              ...(p.pollMulti === true ? { multiple: true } : {}),
            },
          }
        : {}),
      ...(str(p, "messageId") ? { messageId: str(p, "messageId")! } : {}),
      ...(str(p, "emoji") ? { emoji: str(p, "emoji")! } : {}),
      ...(p.remove === true ? { remove: true } : {}),
      ...(str(p, "query") !== undefined ? { query: str(p, "query")! } : {}),
      ...(typeof p.limit === "number" ? { limit: p.limit } : {}),
      idempotencyKey: str(p, "idempotencyKey") ?? randomUUID(),
    };
  }

  async function one(channel: Channel, action: MessageAction, to: string, p: Params, signal?: AbortSignal) {
    const req = await request(channel, action, to, p, signal);
    if (p.dryRun === true)
      return {
        ok: true,
        dryRun: true,
        channel: channel.id,
        action,
        to,
        requests: await channel.prepare(req),
      };
    if (signal?.aborted) throw new Error("Message send aborted");
    const result = await channel.execute(req, signal);
    // what a read returns was written by others (other agents, the app): untrusted text
    if (action === "read" || action === "search")
      return { channel: channel.id, action, ...wrapInbound(result, channel.id) };
    return {
      channel: channel.id,
      action,
      to,
      via: "direct",
      ...(req.media ? { mediaUrl: req.media.source } : {}),
      result,
    };
  }

  return {
    name: "message",
    label: "Message",
    description: describeMessageTool(channels, options.broadcast === true),
    parameters: schema,
    async execute(_id, params, signal) {
      const p = params as Params;
      const action = p.action as MessageAction;
      if (action === "broadcast") {
        if (!options.broadcast) throw new ToolInputError(BROADCAST_DISABLED);
        const targets = (p.targets as string[] | undefined)?.filter(Boolean) ?? [];
        if (targets.length === 0)
          throw new ToolInputError("Broadcast requires at least one target in --targets.");
        const channel = pickChannel(str(p, "channel"));
        const results = [];
        for (const to of targets) {
          try {
            results.push({
              channel: channel.id,
              to,
              ok: true,
              result: await one(channel, "send", to, p, signal),
            });
          } catch (error) {
            results.push({ channel: channel.id, to, ok: false, error: (error as Error).message });
          }
        }
        return jsonResult({ results });
      }
      const channel = pickChannel(str(p, "channel"));
      if (!channel.actions.has(action)) throw new ToolInputError(unsupported(action, channel.id));
      const to = str(p, "target") ?? channel.defaultTarget;
      if (!to && action !== "read" && action !== "search") throw new ToolInputError(TARGET_REQUIRED);
      return jsonResult(await one(channel, action, to ?? "", p, signal));
    },
  };
}
