import {
  ANNOUNCE_STEP_MESSAGE,
  agentToAgentAnnounceContext,
  agentToAgentReplyContext,
  isAnnounceSkip,
  isReplySkip,
  type Parties,
} from "./a2a-context.js";
export { type AgentToAgentEvents, type AgentToAgentTurn, agentToAgentEvents } from "./a2a-events.js";
import { agentToAgentEvents } from "./a2a-events.js";
import type { SessionsService } from "./service.js";
import type { TranscriptMessage } from "./types.js";

export {
  ANNOUNCE_SKIP,
  ANNOUNCE_STEP_MESSAGE,
  agentToAgentAnnounceContext,
  agentToAgentMessageContext,
  agentToAgentReplyContext,
  DEFAULT_PING_PONG_TURNS,
  isAnnounceSkip,
  isReplySkip,
  MAX_PING_PONG_TURNS,
  pingPongTurns,
  REPLY_SKIP,
} from "./a2a-context.js";

const STEP_WAIT_MAX_MS = 60_000;
/** OpenClaw's internal channel (its web chat): nothing is posted to it. */
const INTERNAL_CHANNEL = "webchat";

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
 * reply, `REPLY_SKIP` ending it), then, when the target session has a channel to post to, an
 * announce step there whose reply, unless `ANNOUNCE_SKIP` or empty, is emitted for that channel
 * (a target with no channel gets no announce turn, as in 9.6). Never throws.
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
    // the announce step's reply is posted to the target's channel; with none (a session no
    // channel delivers to, as every session an MCP host makes), 9.6 runs no announce turn
    const canAnnounce = targetChannel !== "unknown" && targetChannel !== INTERNAL_CHANNEL;
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
    if (!canAnnounce) {
      events.emit("done", { targetSessionKey: target, turns, announced: false });
      return;
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
