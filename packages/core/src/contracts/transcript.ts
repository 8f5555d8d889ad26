/** A content block of a transcript message (pi's format: text, image, thinking, tool calls). */
export type MessageBlock =
  | { type: "text"; text: string }
  | { type: "image"; data?: string; mimeType?: string; omitted?: boolean; bytes?: number }
  | { type: "thinking"; thinking: string; thinkingSignature?: string }
  | { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

/** One message of a session, in pi-ai's shape (user, assistant or toolResult), plus where it came from. */
export interface TranscriptMessage {
  role: "user" | "assistant" | "toolResult";
  content: string | MessageBlock[];
  timestamp: number;
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  model?: string;
  provider?: string;
  stopReason?: string;
  usage?: Record<string, unknown>;
  /** Set on messages the sessions layer writes itself (completion announces). */
  internal?: { kind: "completion"; runId: string };
  [key: string]: unknown;
}
