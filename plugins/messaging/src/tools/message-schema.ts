import { optionalStringEnum, stringEnum, type TObject, type TSchema, Type } from "@clawtools/core";
import type { Channel, MessageAction } from "../channel.js";

/** The actions the configured channels support (send first), as OpenClaw builds its enum. */
export function actionsOf(channels: Channel[], broadcast: boolean): MessageAction[] {
  const all = new Set<MessageAction>(["send"]);
  for (const channel of channels) for (const action of channel.actions) all.add(action);
  if (broadcast) all.add("broadcast");
  else all.delete("broadcast");
  return [...all];
}

/**
 * One flat object; a parameter no configured channel supports is not in the schema at all, so
 * a model is never offered an attachment, poll or reaction that would be dropped.
 */
export function buildMessageSchema(channels: Channel[], broadcast: boolean): TObject {
  const actions = actionsOf(channels, broadcast);
  const can = (test: (c: Channel) => boolean) => channels.some(test);
  const props: Record<string, TSchema> = {
    action: stringEnum(actions as [MessageAction, ...MessageAction[]], { description: "What to do." }),
    channel:
      channels.length > 1 ? optionalStringEnum(channels.map((c) => c.id)) : Type.Optional(Type.String()),
    target: Type.Optional(Type.String({ description: "Chat, channel or user id to send to." })),
    accountId: Type.Optional(Type.String()),
    dryRun: Type.Optional(
      Type.Boolean({ description: "Answer with exactly what would be sent, and send nothing." }),
    ),
    message: Type.Optional(Type.String({ description: "Text to send." })),
    silent: Type.Optional(Type.Boolean()),
    idempotencyKey: Type.Optional(
      Type.String({ description: "Same key, same message: a resend is not delivered twice." }),
    ),
  };
  if (broadcast)
    props.targets = Type.Optional(Type.Array(Type.String(), { description: "broadcast: every target." }));
  if (actions.includes("reply"))
    props.replyTo = Type.Optional(Type.String({ description: "Message id to reply to." }));
  if (can((c) => Boolean(c.capabilities.threads))) props.threadId = Type.Optional(Type.String());
  if (can((c) => Boolean(c.capabilities.media))) {
    Object.assign(props, {
      media: Type.Optional(
        Type.String({ description: "Workspace path or http(s) URL of an attachment (not data: URLs)." }),
      ),
      path: Type.Optional(Type.String({ description: "Alias of media." })),
      filePath: Type.Optional(Type.String({ description: "Alias of media." })),
      buffer: Type.Optional(
        Type.String({ description: "Attachment content as base64 (or a base64 data: URL)." }),
      ),
      filename: Type.Optional(Type.String()),
      contentType: Type.Optional(Type.String()),
      mimeType: Type.Optional(Type.String({ description: "Alias of contentType." })),
      caption: Type.Optional(Type.String()),
    });
    if (can((c) => Boolean(c.capabilities.media?.voice))) props.asVoice = Type.Optional(Type.Boolean());
    if (can((c) => Boolean(c.capabilities.media?.document))) {
      props.asDocument = Type.Optional(Type.Boolean());
      props.forceDocument = Type.Optional(Type.Boolean({ description: "Alias of asDocument." }));
    }
  }
  if (actions.includes("poll"))
    Object.assign(props, {
      pollQuestion: Type.Optional(Type.String()),
      pollOption: Type.Optional(Type.Array(Type.String(), { description: "poll: at least two options." })),
      pollMulti: Type.Optional(Type.Boolean({ description: "poll: allow several answers." })),
    });
  if (actions.includes("react"))
    Object.assign(props, {
      messageId: Type.Optional(Type.String()),
      emoji: Type.Optional(Type.String()),
      remove: Type.Optional(Type.Boolean()),
    });
  if (actions.includes("read") || actions.includes("search"))
    Object.assign(props, {
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 200,
          description: "read/search: messages at most (default 20, 1 to 200).",
        }),
      ),
      query: Type.Optional(Type.String({ description: "search: text to look for." })),
    });
  return Type.Object(props, { additionalProperties: false });
}

export function describeMessageTool(channels: Channel[], broadcast: boolean): string {
  if (channels.length === 0)
    return "Send, delete, and manage messages via channel plugins. No channel is configured: every call is refused until one is (messaging.channels).";
  const lines = channels.map(
    (c) => `${c.id}: ${[...c.actions].filter((a) => a !== "broadcast" || broadcast).join(", ")}`,
  );
  return `Send, delete, and manage messages via channel plugins. Channels and their actions: ${lines.join("; ")}.`;
}
