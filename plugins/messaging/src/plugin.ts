import { EventEmitter } from "node:events";
import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import type { Lookup } from "@clawtools/core/safety";
import type { Channel } from "./channel.js";
import { createDiscordChannel } from "./channels/discord.js";
import { createInboxChannel, type InboxEntry } from "./channels/inbox.js";
import { createSlackChannel } from "./channels/slack.js";
import { createTelegramChannel } from "./channels/telegram.js";
import { createWebhookChannel } from "./channels/webhook.js";
import { type MessagingConfig, MessagingConfigSchema } from "./config.js";
import { createMessageTool } from "./tools/message.js";

export interface MessagingPluginOptions extends MessagingConfig {
  /** Channels of your own, beside (or instead of) the configured ones. */
  extraChannels?: Channel[];
  /** DNS resolver for webhook and media URLs (tests pin answers). */
  lookup?: Lookup;
}

export type MessagingPlugin = ClawtoolsPlugin & {
  /** `message` events: every inbox entry as it is appended, from every toolset. */
  readonly events: EventEmitter<{ message: [InboxEntry] }>;
};

/**
 * Builds the configured channels. The inbox is a channel only when configured
 * (`channels.inbox: {}`), as OpenClaw counts only configured channels: a call with none
 * configured is refused, never "delivered" to a log nobody reads.
 */
export function buildChannels(
  config: MessagingConfig,
  stateDir: string | undefined,
  lookup?: Lookup,
): Channel[] {
  const c = config.channels ?? {};
  const mediaMaxBytes = Math.round((config.mediaMaxMb ?? 20) * 1024 * 1024);
  const channels: Channel[] = [];
  if (c.webhook)
    channels.push(createWebhookChannel({ ...c.webhook, mediaMaxBytes, ...(lookup ? { lookup } : {}) }));
  if (c.telegram) channels.push(createTelegramChannel(c.telegram));
  if (c.slack) channels.push(createSlackChannel(c.slack));
  if (c.discord) channels.push(createDiscordChannel(c.discord));
  if (c.inbox && c.inbox.enabled !== false) {
    if (!stateDir)
      throw new ToolUnavailableError("the inbox channel needs a state directory (context.stateDir)");
    channels.unshift(
      createInboxChannel({ stateDir, ...(c.inbox?.defaultTo ? { defaultTo: c.inbox.defaultTo } : {}) }),
    );
  }
  return channels;
}

/** The messaging section: one `message` tool over the configured channels. */
export function createMessagingPlugin(options: MessagingPluginOptions = {}): MessagingPlugin {
  const { extraChannels, lookup, ...inCode } = options;
  const events = new EventEmitter<{ message: [InboxEntry] }>();
  return defineSectionPlugin({
    module: import.meta.url,
    config: inCode,
    description: "Messaging: the message tool over an inbox, signed webhooks, Telegram, Slack and Discord",
    section: "messaging",
    configSchema: MessagingConfigSchema,
    tools: (section) => [
      {
        name: "message",
        factory: (ctx: ToolContext) => {
          const config = section.read(ctx);
          const channels = [...buildChannels(config, ctx.stateDir, lookup), ...(extraChannels ?? [])];
          for (const channel of channels)
            if ("events" in channel)
              (channel.events as EventEmitter).on("message", (e: InboxEntry) => events.emit("message", e));
          return createMessageTool(ctx, {
            channels,
            ...(config.defaultChannel ? { defaultChannel: config.defaultChannel } : {}),
            broadcast: config.broadcast?.enabled === true,
            ...(ctx.workspaceDir ? { workspaceDir: ctx.workspaceDir } : {}),
            mediaMaxBytes: Math.round((config.mediaMaxMb ?? 20) * 1024 * 1024),
            ...(config.allowPrivateNetwork ? { allowPrivateNetwork: true } : {}),
            ...(lookup ? { lookup } : {}),
          });
        },
      },
    ],
    members: { events },
  });
}

export const messagingPlugin = createMessagingPlugin();
export default messagingPlugin;
