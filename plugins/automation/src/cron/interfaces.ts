// The store and lease contracts live in core so a PostgreSQL or Redis backend implements them
// without this section.
export type { CronStore, LeaderLease } from "@clawtools/core/contracts";

/**
 * Queues messages into a session (structurally `SessionStore.append` of @clawtools/sessions).
 * `create` is used, when present, to make the session before the first append.
 */
export interface SystemEventSink {
  append(
    sessionKey: string,
    messages: SinkMessage[],
    options?: { idempotencyKey?: string },
  ): Promise<boolean | undefined | void>;
}

export interface SinkMessage {
  role: "user" | "assistant";
  content: string;
  timestamp: number;
  [key: string]: unknown;
}

export interface AgentTurnOutcome {
  status: "ok" | "error" | "timeout" | "aborted" | "running";
  reply?: string;
  error?: string;
}

/** Runs an agent turn (structurally `AgentRunner` of @clawtools/sessions: `start` and `wait`). */
export interface AgentTurnRunner {
  start(request: {
    sessionKey: string;
    message: string;
    model?: string;
    timeoutMs?: number;
  }): Promise<{ runId: string }>;
  wait(runId: string, timeoutMs: number): Promise<AgentTurnOutcome>;
}

// Time and timers live in core (tests pass its FakeClock); cron's timers never hold the process open.
export type { Clock } from "@clawtools/core/time";
export { backgroundClock as systemClock } from "@clawtools/core/time";
