/**
 * The channel contract (implemented by the messaging section's channels). A channel says which actions it supports and
 * what it can carry; the `message` tool builds its action enum, parameters and description from
 * the configured channels, as OpenClaw does. Every send is first *prepared* (the exact request
 * that would go out), so `dryRun` answers with what would be sent and nothing is sent.
 */

/** The actions a channel can offer (a subset of OpenClaw's CHANNEL_MESSAGE_ACTION_NAMES). */
export type MessageAction =
  | "send"
  | "reply"
  | "thread-reply"
  | "poll"
  | "react"
  | "read"
  | "search"
  | "broadcast";

export interface ChannelCapabilities {
  /** Attachments at all, and the largest one the channel takes. */
  media?: { maxBytes: number; voice?: boolean; document?: boolean };
  polls?: boolean;
  threads?: boolean;
  reactions?: boolean;
  interactive?: boolean;
}

/** An attachment, resolved and read (a workspace file, a downloaded URL or a decoded buffer). */
export interface MediaAttachment {
  filename: string;
  contentType: string;
  data: Buffer;
  /** Where it came from, for the result (`mediaUrl`). */
  source: string;
}

export interface MessageRequest {
  action: MessageAction;
  to: string;
  text?: string;
  media?: MediaAttachment;
  caption?: string;
  replyTo?: string;
  threadId?: string;
  silent?: boolean;
  asVoice?: boolean;
  asDocument?: boolean;
  poll?: { question: string; options: string[]; multiple?: boolean };
  messageId?: string;
  emoji?: string;
  remove?: boolean;
  query?: string;
  limit?: number;
  idempotencyKey: string;
}

/** One HTTP request as it would go out; secrets are replaced by `<redacted>` in `dryRun` answers. */
export interface PreparedRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers: Record<string, string>;
  /** JSON body, or multipart fields (files as {filename, contentType, bytes}). */
  json?: unknown;
  multipart?: Record<string, string | { filename: string; contentType: string; bytes: number }>;
}

export interface ChannelResult {
  messageId?: string;
  chatId?: string;
  [key: string]: unknown;
}

export interface Channel {
  id: string;
  actions: ReadonlySet<MessageAction>;
  capabilities: ChannelCapabilities;
  /** A target used when a call names none (configured per channel). */
  defaultTarget?: string;
  /** What would be sent, without sending (dryRun). */
  prepare(request: MessageRequest): Promise<PreparedRequest[]> | PreparedRequest[];
  /** Sends (or reads) for real; the result carries the channel's message id. */
  execute(request: MessageRequest, signal?: AbortSignal): Promise<ChannelResult>;
  dispose?(): Promise<void>;
}
