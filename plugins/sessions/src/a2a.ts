import { EventEmitter } from "node:events";
import type { SessionsConfig } from "./config.js";
import type { SessionsService } from "./service.js";
import type { TranscriptMessage } from "./types.js";

/** A reply of exactly this ends the ping-pong. */
export const REPLY_SKIP = "REPLY_SKIP";
/** An announce reply of exactly this keeps the exchange silent. */
export const ANNOUNCE_SKIP = "ANNOUNCE_SKIP";
export const DEFAULT_PING_PONG_TURNS = 5;
export const MAX_PING_PONG_TURNS = 5;
/** What the target session is sent for the announce step. */
export const ANNOUNCE_STEP_MESSAGE = "Agent-to-agent announce step.";
/** The longest a single follow-up step is waited for. */
const STEP_WAIT_MAX_MS = 60_000;

export const isReplySkip = (text?: string) => (text ?? "").trim() === REPLY_SKIP;
export const isAnnounceSkip = (text?: string) => (text ?? "").trim() === ANNOUNCE_SKIP;

/** `config.sessions.agentToAgent.maxPingPongTurns`, clamped to 0..5 (default 5). */
export function pingPongTurns(config: SessionsConfig): number {
  const raw = config.agentToAgent?.maxPingPongTurns;
  if (typeof raw !== "number" || !Number.isFinite(raw)) return DEFAULT_PING_PONG_TURNS;
  return Math.max(0, Math.min(MAX_PING_PONG_TURNS, Math.floor(raw)));
}

interface Parties {
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

export interface AgentToAgentTurn {
  turn: number;
  maxTurns: number;
  speakerSessionKey: string;
  listenerSessionKey: string;
  speakerRole: "requester" | "target";
  reply: string;
}

export interface AgentToAgentEvents {
  /** One ping-pong reply (not a skip). */
  turn: [AgentToAgentTurn & { requesterSessionKey: string; targetSessionKey: string }];
  /**
   * The target's announce reply, for the target's channel. This section posts nowhere itself:
   * an app with a channel (the messaging section, say) forwards it.
   */
  announce: [
    {
      requesterSessionKey?: string | undefined;
      targetSessionKey: string;
      channel?: string | undefined;
      message: string;
    },
  ];
  /** The exchange ended (`announced`: an announce event was emitted). */
  done: [{ targetSessionKey: string; turns: number; announced: boolean; error?: string }];
}

const emitters = new WeakMap<SessionsService, EventEmitter<AgentToAgentEvents>>();

/** The agent-to-agent events of one service (every context on the same state directory shares it). */
export function agentToAgentEvents(service: SessionsService): EventEmitter<AgentToAgentEvents> {
  let emitter = emitters.get(service);
  if (!emitter) {
    emitter = new EventEmitter<AgentToAgentEvents>();
    emitters.set(service, emitter);
  }
  return emitter;
}

const textOf = (m: TranscriptMessage) =>
  typeof m.content === "string"
    ? m.content
    : m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

/** The session's last message (tool results aside) when it is the assistant's, as text. */
async function latestAssistantReply(service: SessionsService, sessionKey: string) {
  const history = await service.store.history(sessionKey, { limit: 50 });
  const last = history.filter((m) => m.role !== "toolResult").at(-1);
  const text = last?.role === "assistant" ? textOf(last).trim() : "";
  return text || undefined;
}

/**
 * One turn in a session through the runner, without taking over the session's live run: the
 * reply, or undefined when the run did not end well within the wait.
 */
async function step(
  service: SessionsService,
  sessionKey: string,
  message: string,
  extraSystemPrompt: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const runner = service.runner!;
  // one run at a time in a session, as OpenClaw's session lane: a live run this process knows of
  // (a sub-agent requester mid-turn, say) ends first; one that outlasts the wait ends the exchange
  const live = service.activeRun(sessionKey);
  if (live && (await runner.wait(live, Math.min(timeoutMs, STEP_WAIT_MAX_MS))).status === "running")
    return undefined;
  const { model } = await service.ensure(sessionKey);
  const { runId } = await runner.start({
    sessionKey,
    message,
    extraSystemPrompt,
    ...(model ? { model } : {}),
  });
  const outcome = await runner.wait(runId, Math.min(timeoutMs, STEP_WAIT_MAX_MS));
  if (outcome.status !== "ok") return undefined;
  return outcome.reply?.trim() || (await latestAssistantReply(service, sessionKey));
}

export interface AgentToAgentFlow {
  targetSessionKey: string;
  /** The message sessions_send delivered. */
  message: string;
  /** Each step's time limit: the send's timeout, or 30 s when it did not wait. */
  announceTimeoutMs: number;
  maxPingPongTurns: number;
  requesterSessionKey?: string | undefined;
  requesterChannel?: string | undefined;
  /** The target's reply the send already has. */
  roundOneReply?: string | undefined;
  /** Without a reply: the run to wait for first (a send with timeoutSeconds 0). */
  waitRunId?: string | undefined;
}

/**
 * OpenClaw's sessions_send follow-up, run after the tool has returned: up to `maxPingPongTurns`
 * turns alternating between the requester and the target (each answering the other's last
 * reply, `REPLY_SKIP` ending it), then an announce step in the target session whose reply,
 * unless `ANNOUNCE_SKIP` or empty, is emitted for the target's channel. Never throws.
 */
export async function runAgentToAgentFlow(service: SessionsService, flow: AgentToAgentFlow): Promise<void> {
  const events = agentToAgentEvents(service);
  const target = flow.targetSessionKey;
  let turns = 0;
  try {
    let roundOne = flow.roundOneReply;
    if (!roundOne && flow.waitRunId) {
      const outcome = await service.runner!.wait(
        flow.waitRunId,
        Math.min(flow.announceTimeoutMs, STEP_WAIT_MAX_MS),
      );
      if (outcome.status === "ok") roundOne = await latestAssistantReply(service, target);
    }
    let latest = roundOne;
    if (!latest) {
      events.emit("done", { targetSessionKey: target, turns, announced: false });
      return;
    }
    const targetChannel = (await service.store.get(target))?.channel ?? "unknown";
    const parties: Parties = {
      requesterSessionKey: flow.requesterSessionKey,
      requesterChannel: flow.requesterChannel,
      targetSessionKey: target,
      targetChannel,
    };
    const requester = flow.requesterSessionKey;
    if (flow.maxPingPongTurns > 0 && requester && requester !== target) {
      let speaker = requester;
      let listener = target;
      let incoming = latest;
      for (let turn = 1; turn <= flow.maxPingPongTurns; turn++) {
        const speakerRole = speaker === requester ? "requester" : "target";
        const context = agentToAgentReplyContext({
          ...parties,
          currentRole: speakerRole,
          turn,
          maxTurns: flow.maxPingPongTurns,
        });
        const reply = await step(service, speaker, incoming, context, flow.announceTimeoutMs);
        if (!reply || isReplySkip(reply)) break;
        turns = turn;
        latest = reply;
        events.emit("turn", {
          turn,
          maxTurns: flow.maxPingPongTurns,
          speakerSessionKey: speaker,
          listenerSessionKey: listener,
          speakerRole,
          reply,
          requesterSessionKey: requester,
          targetSessionKey: target,
        });
        incoming = reply;
        [speaker, listener] = [listener, speaker];
      }
    }
    const announce = await step(
      service,
      target,
      ANNOUNCE_STEP_MESSAGE,
      agentToAgentAnnounceContext({
        ...parties,
        originalMessage: flow.message,
        roundOneReply: roundOne,
        latestReply: latest,
      }),
      flow.announceTimeoutMs,
    );
    const announced = Boolean(announce?.trim()) && !isAnnounceSkip(announce);
    if (announced)
      events.emit("announce", {
        requesterSessionKey: requester,
        targetSessionKey: target,
        ...(targetChannel !== "unknown" ? { channel: targetChannel } : {}),
        message: announce!.trim(),
      });
    events.emit("done", { targetSessionKey: target, turns, announced });
  } catch (error) {
    events.emit("done", {
      targetSessionKey: target,
      turns,
      announced: false,
      error: (error as Error).message,
    });
  }
}
