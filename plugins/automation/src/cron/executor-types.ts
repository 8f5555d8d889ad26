import type { UrlPolicy } from "@clawtools/core/safety";
import type { AgentTurnRunner, Clock, SystemEventSink } from "./interfaces.js";
import type { CronJobState, CronRunStatus } from "./types.js";

// What the cron executor is given and what a run and its delivery produce.

/** What one run produced, before delivery. */
export interface RunResult {
  status: Exclude<CronRunStatus, "interrupted">;
  error?: string;
  summary?: string;
  sessionKey?: string;
  model?: string;
  /** The agent turn hit its time limit. */
  timedOut?: boolean;
}

export interface DeliveryResult {
  delivered: boolean;
  deliveryStatus: NonNullable<CronJobState["lastDeliveryStatus"]>;
  deliveryError?: string;
}

/** Sends an announce to a channel (`delivery.channel` / `delivery.to`): the messaging section's job, supplied by the app. */
export type ChannelAnnouncer = (
  target: { channel?: string; to?: string; accountId?: string },
  text: string,
) => Promise<void>;

export interface ExecutorOptions {
  /** Where system events and announces land (a SessionStore). */
  sessions?: SystemEventSink & {
    get?(key: string): Promise<unknown>;
    create?(entry: { key: string; agentId: string }): Promise<unknown>;
  };
  /** Runs agent turns (an AgentRunner). */
  runner?: AgentTurnRunner;
  announcer?: ChannelAnnouncer;
  /** URL policy for webhooks; private targets are refused unless it allows them. */
  webhookPolicy?: UrlPolicy;
  /**
   * Attempts per webhook (default 3) and the wait before the second (default 1,000 ms, doubling,
   * with jitter: between half and all of it); a `Retry-After` answer sets the wait instead.
   */
  webhookAttempts?: number;
  webhookRetryDelayMs?: number;
  webhookTimeoutMs?: number;
  /** How long an agent turn may take when its payload sets no timeout (default 10 min). */
  agentTurnTimeoutMs?: number;
  defaultAgentId: string;
  clock: Clock;
  /**
   * `pull` when no session transcript reaches a reader (the sessions belong to MCP hosts, which
   * nothing wakes): an announce naming no channel then fails with `NO_CHANNEL`, as 9.6's does,
   * instead of landing unread in the creating session. Default `push`.
   */
  laterResults?: "push" | "pull";
}
