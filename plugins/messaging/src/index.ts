export {
  type Channel,
  type ChannelCapabilities,
  type ChannelResult,
  MESSAGE_ACTIONS,
  type MediaAttachment,
  type MessageAction,
  type MessageRequest,
  type PreparedRequest,
} from "./channel.js";
export { createDiscordChannel, type DiscordOptions } from "./channels/discord.js";
export { createInboxChannel, type InboxChannel, type InboxEntry } from "./channels/inbox.js";
export { createSlackChannel, type SlackOptions } from "./channels/slack.js";
export { createTelegramChannel, type TelegramOptions } from "./channels/telegram.js";
export {
  createWebhookChannel,
  IDEMPOTENCY_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  TIMESTAMP_HEADER,
  type WebhookOptions,
} from "./channels/webhook.js";
export { type MessagingConfig, MessagingConfigSchema } from "./config.js";
export { DATA_URL_REFUSED } from "./media.js";
export {
  buildChannels,
  createMessagingPlugin,
  type MessagingPlugin,
  type MessagingPluginOptions,
  messagingPlugin,
  messagingPlugin as default,
} from "./plugin.js";
export { BROADCAST_DISABLED, createMessageTool, NO_CHANNELS, TARGET_REQUIRED } from "./tools/message.js";
