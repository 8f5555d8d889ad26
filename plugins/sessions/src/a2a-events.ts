import { EventEmitter } from "node:events";
import type { SessionsService } from "./service.js";

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
