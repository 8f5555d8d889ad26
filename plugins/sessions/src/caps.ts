import type { MessageBlock, TranscriptMessage } from "./types.js";

export const HISTORY_TEXT_MAX = 4_000;
export const HISTORY_BYTES_MAX = 80 * 1024;
const TRUNCATED = "\n…(truncated)…";

// Secrets a model should not read back out of another session (API keys, bearer tokens).
const SECRET =
  /\b(sk-[A-Za-z0-9_-]{16,}|xox[abpr]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})\b|(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g;
export const redact = (text: string) =>
  text.replace(SECRET, (_m, _k, bearer) => (bearer ? `${bearer}[redacted]` : "[redacted]"));

const cap = (text: string) => {
  const clean = redact(text);
  const redacted = clean !== text;
  return clean.length > HISTORY_TEXT_MAX
    ? { text: `${clean.slice(0, HISTORY_TEXT_MAX)}${TRUNCATED}`, cut: true, redacted }
    : { text: clean, cut: false, redacted };
};

/**
 * A message as sessions_history returns it: text redacted and capped at 4,000 characters per
 * block, usage and thinking signatures removed, image data replaced by its size.
 */
export function sanitizeMessage(message: TranscriptMessage): {
  message: TranscriptMessage;
  truncated: boolean;
  redacted: boolean;
} {
  let truncated = false;
  let redacted = false;
  const { usage: _u, ...rest } = message;
  const out: TranscriptMessage = { ...rest };
  if (typeof message.content === "string") {
    const c = cap(message.content);
    truncated ||= c.cut;
    redacted ||= c.redacted;
    out.content = c.text;
  } else {
    out.content = message.content.map((block): MessageBlock => {
      if (block.type === "text") {
        const c = cap(block.text);
        truncated ||= c.cut;
        redacted ||= c.redacted;
        return { type: "text", text: c.text };
      }
      if (block.type === "image")
        return {
          type: "image",
          ...(block.mimeType ? { mimeType: block.mimeType } : {}),
          omitted: true,
          bytes: block.data ? Math.floor((block.data.length * 3) / 4) : 0,
        };
      if (block.type === "thinking") {
        const c = cap(block.thinking);
        truncated ||= c.cut;
        redacted ||= c.redacted;
        return { type: "thinking", thinking: c.text };
      }
      return block;
    });
  }
  return { message: out, truncated, redacted };
}

/** Keeps the newest messages that fit in 80 KB; else only the last; else a placeholder. */
export function capHistory(messages: TranscriptMessage[]): {
  messages: TranscriptMessage[];
  dropped: number;
  bytes: number;
} {
  const sizes = messages.map((m) => Buffer.byteLength(JSON.stringify(m)));
  let bytes = 0;
  let start = messages.length;
  while (start > 0 && bytes + sizes[start - 1]! <= HISTORY_BYTES_MAX) bytes += sizes[--start]!;
  if (start < messages.length) return { messages: messages.slice(start), dropped: start, bytes };
  if (messages.length === 0) return { messages: [], dropped: 0, bytes: 2 };
  const placeholder: TranscriptMessage = {
    role: "assistant",
    content: "[sessions_history omitted: message too large]",
    timestamp: Date.now(),
  };
  return {
    messages: [placeholder],
    dropped: messages.length,
    bytes: Buffer.byteLength(JSON.stringify(placeholder)),
  };
}
