import { sanitizeExternalText, wrapExternalContent } from "@clawtools/core";
import type { ChannelResult } from "../channel.js";

/** Fields of a read message that carry free text a model could take for instructions. */
const BODY_FIELDS = ["text", "caption"] as const;

/** Every other string in a message: markers and model control tokens neutralised in place. */
function sanitizeDeep(value: unknown): unknown {
  if (typeof value === "string") return sanitizeExternalText(value);
  if (Array.isArray(value)) return value.map(sanitizeDeep);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sanitizeDeep(v)]));
  return value;
}

/**
 * A `read` / `search` answer as the model gets it: each message's text and caption wrapped in
 * core's external-content markers (a fresh random id per block), every other string sanitised,
 * and the answer flagged `externalContent`. Messages were written by others (another agent,
 * another session, the app), so they are data, never instructions.
 */
export function wrapInbound(result: ChannelResult, channelId: string): ChannelResult {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const wrapped = messages.map((message) => {
    if (!message || typeof message !== "object") return sanitizeDeep(message);
    const out = sanitizeDeep(message) as Record<string, unknown>;
    for (const field of BODY_FIELDS) {
      const raw = (message as Record<string, unknown>)[field];
      if (typeof raw === "string") out[field] = wrapExternalContent(raw, { source: "External" });
    }
    return out;
  });
  return {
    ...result,
    messages: wrapped,
    externalContent: { untrusted: true, source: "message", channel: channelId, wrapped: true },
  };
}
