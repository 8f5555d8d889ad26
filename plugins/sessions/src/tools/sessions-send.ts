import { MAX_TIMEOUT_SECONDS } from "./limits.js";
import { type AgentTool, jsonResult, Type } from "@clawtools/core";
import { agentToAgentMessageContext, pingPongTurns, runAgentToAgentFlow } from "../a2a.js";
import { type SessionsEnv, resolveVisible } from "../context.js";
import { trackFollowUp } from "../follow-ups.js";
import type { TranscriptMessage } from "../types.js";

export const sessionsSendSchema = Type.Object(
  {
    sessionKey: Type.Optional(Type.String()),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    message: Type.String(),
    timeoutSeconds: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_TIMEOUT_SECONDS,
        description: "Wait for the reply (default 30; 0: do not wait).",
      }),
    ),
  },
  { additionalProperties: false },
);

const textOf = (m: TranscriptMessage) =>
  typeof m.content === "string"
    ? m.content
    : m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

export function createSessionsSendTool(env: SessionsEnv): AgentTool<typeof sessionsSendSchema> {
  return {
    name: "sessions_send",
    label: "Send to session",
    description: "Send a message to another session and (unless timeoutSeconds is 0) wait for its reply.",
    parameters: sessionsSendSchema,
    async execute(_id, p) {
      if (p.sessionKey && p.label)
        return jsonResult({ status: "error", error: "Provide either sessionKey or label (not both)." });
      if (!p.sessionKey && !p.label)
        return jsonResult({ status: "error", error: "Either sessionKey or label is required" });
      let ref = p.sessionKey;
      if (p.label) {
        if (env.sandboxed && p.agentId && p.agentId !== env.agentId)
          return jsonResult({
            status: "forbidden",
            error: "Sandboxed sessions_send label lookup is limited to this agent",
          });
        const found = await env.service.store.resolve({ label: p.label, agentId: p.agentId ?? env.agentId });
        if (!found) return jsonResult({ status: "error", error: `No session found with label: ${p.label}` });
        ref = found.key;
      }
      const target = await resolveVisible(env, "send", ref!);
      if (!("entry" in target)) return jsonResult(target);
      const sessionKey = target.entry.key;
      const delivery = { status: "pending", mode: "announce" };
      // the reply is what the run adds after the messages that were there before it started
      const baseline = (await env.service.store.history(sessionKey, { limit: 50 })).length;
      // the caller as OpenClaw names it: only a session the context named takes part in the exchange
      const requesterSessionKey = env.hasSession ? env.callerKey : undefined;
      let runId: string;
      try {
        runId = await env.service.start(sessionKey, p.message, {
          extraSystemPrompt: agentToAgentMessageContext({
            requesterSessionKey,
            requesterChannel: env.channel,
            targetSessionKey: sessionKey,
          }),
          ...(target.entry.model ? { model: target.entry.model } : {}),
        });
      } catch (error) {
        return jsonResult({ status: "error", error: (error as Error).message, sessionKey });
      }
      const timeoutSeconds = p.timeoutSeconds ?? 30;
      // the follow-up (ping-pong, then the announce step) runs after the tool has returned
      const followUp = (roundOneReply?: string, waitRunId?: string) =>
        trackFollowUp(
          env.service,
          runAgentToAgentFlow(env.service, {
            targetSessionKey: sessionKey,
            message: p.message,
            announceTimeoutMs: timeoutSeconds === 0 ? 30_000 : timeoutSeconds * 1000,
            maxPingPongTurns: pingPongTurns(env.config),
            requesterSessionKey,
            requesterChannel: env.channel,
            roundOneReply,
            waitRunId,
          }),
        );
      if (timeoutSeconds === 0) {
        followUp(undefined, runId);
        return jsonResult({ runId, status: "accepted", sessionKey, delivery });
      }
      const outcome = await env.service.runner!.wait(runId, timeoutSeconds * 1000);
      if (outcome.status === "running")
        return jsonResult({
          runId,
          status: "timeout",
          error: `No reply within ${timeoutSeconds}s; the message was delivered and the run goes on.`,
          sessionKey,
        });
      if (outcome.status !== "ok")
        return jsonResult({ runId, status: "error", error: outcome.error ?? outcome.status, sessionKey });
      let reply = outcome.reply;
      if (reply === undefined) {
        const after = await env.service.store.history(sessionKey, { limit: 50 });
        reply = after
          .slice(Math.min(baseline, after.length))
          .filter((m) => m.role === "assistant")
          .map(textOf)
          .join("\n")
          .trim();
      }
      followUp(reply || undefined);
      return jsonResult({ runId, status: "ok", reply, sessionKey, delivery });
    },
  };
}
