import { type AgentTool, jsonResult, Type } from "@clawtools/core";
import { redactSecrets } from "@clawtools/core/safety";
import { HISTORY_BYTES_MAX, capHistory, redact, sanitizeMessage } from "../caps.js";
import { type SessionsEnv, resolveVisible } from "../context.js";
import { transcriptLink } from "../transcript-resources.js";

export const sessionsHistorySchema = Type.Object(
  {
    sessionKey: Type.String({ description: "A session key from sessions_list (or a sessionId)." }),
    limit: Type.Optional(Type.Number({ minimum: 1 })),
    includeTools: Type.Optional(Type.Boolean({ description: "Include tool results (default false)." })),
  },
  { additionalProperties: false },
);

export function createSessionsHistoryTool(env: SessionsEnv): AgentTool<typeof sessionsHistorySchema> {
  return {
    name: "sessions_history",
    label: "Session history",
    description:
      "Read a session's recent messages (text capped at 4,000 characters per message, 80 KB in all).",
    parameters: sessionsHistorySchema,
    async execute(_id, p) {
      const target = await resolveVisible(env, "history", p.sessionKey);
      if (!("entry" in target)) return jsonResult(target);
      const limit = p.limit ? Math.floor(p.limit) : undefined;
      // read only as far back as the cap can use: a long transcript costs what its tail costs
      const raw = await env.service.store.history(target.entry.key, {
        ...(limit ? { limit: p.includeTools ? limit : limit * 3 } : {}),
        maxBytes: HISTORY_BYTES_MAX * 8,
      });
      let messages = p.includeTools ? raw : raw.filter((m) => m.role !== "toolResult");
      if (limit) messages = messages.slice(-limit);
      let contentTruncated = false;
      let contentRedacted = false;
      const clean = messages.map((m) => {
        const s = sanitizeMessage(m);
        contentTruncated ||= s.truncated;
        contentRedacted ||= s.redacted;
        // a provider's error (a 401 echoing the key, say) is content too
        const failed = s.message as { errorMessage?: unknown };
        if (typeof failed.errorMessage === "string") {
          const text = redact(redactSecrets(failed.errorMessage));
          contentRedacted ||= text !== failed.errorMessage;
          failed.errorMessage = text;
        }
        return s.message;
      });
      const capped = capHistory(clean);
      const answer = jsonResult({
        sessionKey: target.entry.key,
        messages: capped.messages,
        truncated: capped.dropped > 0,
        droppedMessages: capped.dropped,
        contentTruncated,
        contentRedacted,
        bytes: capped.bytes,
      });
      // the whole transcript (the newest 4 MB), as a resource the host can read
      answer.content.push(transcriptLink(target.entry.key));
      return answer;
    },
  };
}
