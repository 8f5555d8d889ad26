/** When a job runs (OpenClaw's `CronSchedule`). */
export type CronSchedule =
  | { kind: "at"; at: string }
  | { kind: "every"; everyMs: number; anchorMs?: number }
  | { kind: "cron"; expr: string; tz?: string; staggerMs?: number };

/** What a run does: queue a system event into a session, or run an agent turn. */
export type CronPayload =
  | { kind: "systemEvent"; text: string }
  | {
      kind: "agentTurn";
      message: string;
      model?: string;
      thinking?: string;
      timeoutSeconds?: number;
      lightContext?: boolean;
      allowUnsafeExternalContent?: boolean;
      fallbacks?: string[];
      toolsAllow?: string[] | null;
    };

export interface CronFailureDestination {
  channel?: string;
  to?: string;
  accountId?: string;
  mode?: "announce" | "webhook";
}

export interface CronDelivery {
  mode: "none" | "announce" | "webhook";
  channel?: string;
  to?: string;
  accountId?: string;
  bestEffort?: boolean;
  failureDestination?: CronFailureDestination;
}

export type CronSessionTarget = "main" | "isolated" | "current" | `session:${string}`;
export type CronWakeMode = "now" | "next-heartbeat";
export type CronRunStatus = "ok" | "error" | "skipped" | "interrupted";

/** The job's runtime state (OpenClaw's `CronJobState`). */
export interface CronJobState {
  nextRunAtMs?: number;
  /** Set while a run is in progress; cleared when it finishes and on every start. */
  runningAtMs?: number;
  lastRunAtMs?: number;
  lastRunStatus?: CronRunStatus;
  lastError?: string;
  lastDurationMs?: number;
  consecutiveErrors?: number;
  lastDeliveryStatus?: "delivered" | "not-delivered" | "not-requested" | "failed";
  scheduleErrorCount?: number;
}

export interface CronJob {
  id: string;
  name: string;
  description?: string;
  agentId?: string;
  sessionKey?: string;
  enabled: boolean;
  deleteAfterRun?: boolean;
  createdAtMs: number;
  updatedAtMs: number;
  schedule: CronSchedule;
  sessionTarget: CronSessionTarget;
  wakeMode: CronWakeMode;
  payload: CronPayload;
  delivery?: CronDelivery;
  failureAlert?: false | Record<string, unknown>;
  state: CronJobState;
}

/** One line of `runs/<jobId>.jsonl` (OpenClaw's run-log entry). */
export interface CronRunLogEntry {
  ts: number;
  jobId: string;
  /** The run's id (what `run` answered when it enqueued it). */
  runId?: string;
  action: "finished";
  status: CronRunStatus;
  error?: string;
  summary?: string;
  delivered?: boolean;
  deliveryStatus?: CronJobState["lastDeliveryStatus"];
  deliveryError?: string;
  sessionId?: string;
  sessionKey?: string;
  runAtMs?: number;
  durationMs?: number;
  nextRunAtMs?: number;
  model?: string;
  provider?: string;
  usage?: Record<string, unknown>;
}

export interface Page<T> {
  entries: T[];
  total: number;
  offset: number;
  limit: number;
  hasMore: boolean;
  nextOffset: number | null;
}
