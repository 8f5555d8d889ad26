import type { SessionsConfig } from "./config.js";

/* The agent-to-agent exchange's words: its skip tokens, turn limit and the context each step gets. */

/** A reply of exactly this ends the ping-pong. */
export const REPLY_SKIP = "REPLY_SKIP";
/** An announce reply of exactly this keeps the exchange silent. */
export const ANNOUNCE_SKIP = "ANNOUNCE_SKIP";
export const DEFAULT_PING_PONG_TURNS = 5;
export const MAX_PING_PONG_TURNS = 5;
/** What the target session is sent for the announce step. */
export const ANNOUNCE_STEP_MESSAGE = "Agent-to-agent announce step.";
/** The longest a single follow-up step is waited for. */

export const isReplySkip = (text?: string) => (text ?? "").trim() === REPLY_SKIP;
export const isAnnounceSkip = (text?: string) => (text ?? "").trim() === ANNOUNCE_SKIP;

/** `config.sessions.agentToAgent.maxPingPongTurns`, clamped to 0..5 (default 5). */
export function pingPongTurns(config: SessionsConfig): number {
  const raw = config.agentToAgent?.maxPingPongTurns;
  if (typeof raw !== "number" || !Number.isFinite(raw)) return DEFAULT_PING_PONG_TURNS;
  return Math.max(0, Math.min(MAX_PING_PONG_TURNS, Math.floor(raw)));
}

export interface Parties {
  requesterSessionKey?: string | undefined;
  requesterChannel?: string | undefined;
  targetSessionKey: string;
  targetChannel?: string | undefined;
}

const lines = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join("\n");
const requesterLines = (p: Parties) => [
  p.requesterSessionKey && `Agent 1 (requester) session: ${p.requesterSessionKey}.`,
  p.requesterChannel && `Agent 1 (requester) channel: ${p.requesterChannel}.`,
];

/** The system-prompt addition of the first message a sessions_send delivers. */
export function agentToAgentMessageContext(p: Omit<Parties, "targetChannel">): string {
  return lines(
    "Agent-to-agent message context:",
    ...requesterLines(p),
    `Agent 2 (target) session: ${p.targetSessionKey}.`,
  );
}

/** The system-prompt addition of one ping-pong turn. */
export function agentToAgentReplyContext(
  p: Parties & { currentRole: "requester" | "target"; turn: number; maxTurns: number },
): string {
  return lines(
    "Agent-to-agent reply step:",
    `Current agent: ${p.currentRole === "requester" ? "Agent 1 (requester)" : "Agent 2 (target)"}.`,
    `Turn ${p.turn} of ${p.maxTurns}.`,
    ...requesterLines(p),
    `Agent 2 (target) session: ${p.targetSessionKey}.`,
    p.targetChannel && `Agent 2 (target) channel: ${p.targetChannel}.`,
    `If you want to stop the ping-pong, reply exactly "${REPLY_SKIP}".`,
  );
}

/** The system-prompt addition of the final announce step, run in the target session. */
export function agentToAgentAnnounceContext(
  p: Parties & {
    originalMessage: string;
    roundOneReply?: string | undefined;
    latestReply?: string | undefined;
  },
): string {
  return lines(
    "Agent-to-agent announce step:",
    ...requesterLines(p),
    `Agent 2 (target) session: ${p.targetSessionKey}.`,
    p.targetChannel && `Agent 2 (target) channel: ${p.targetChannel}.`,
    `Original request: ${p.originalMessage}`,
    p.roundOneReply ? `Round 1 reply: ${p.roundOneReply}` : "Round 1 reply: (not available).",
    p.latestReply ? `Latest reply: ${p.latestReply}` : "Latest reply: (not available).",
    `If you want to remain silent, reply exactly "${ANNOUNCE_SKIP}".`,
    "Any other reply will be posted to the target channel.",
    "After this reply, the agent-to-agent conversation is over.",
  );
}
