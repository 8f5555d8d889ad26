import type { MessageAction } from "@clawtools/core/contracts";

// The channel contract lives in core so a Gateway backend implements it without this section.
export type {
  Channel,
  ChannelCapabilities,
  ChannelResult,
  MediaAttachment,
  MessageAction,
  MessageRequest,
  PreparedRequest,
} from "@clawtools/core/contracts";

/** The actions this section implements (the `message` tool's enum), each one of core's `MessageAction`. */
export const MESSAGE_ACTIONS = [
  "send",
  "reply",
  "thread-reply",
  "poll",
  "react",
  "read",
  "search",
  "broadcast",
] as const satisfies readonly MessageAction[];

// Fails to compile when core's MessageAction gains an action this list does not name.
type Missing = Exclude<MessageAction, (typeof MESSAGE_ACTIONS)[number]>;
const everyAction: [Missing] extends [never] ? true : Missing = true;
void everyAction;

export const unsupported = (action: string, channel: string) =>
  `Message action ${action} not supported for channel ${channel}.`;
