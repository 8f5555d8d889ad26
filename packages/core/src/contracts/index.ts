/**
 * The contracts more than one package implements or consumes: sections implement them, adapters
 * (runners) and backends (PostgreSQL, a Gateway) depend on these alone, never on a section.
 */
export type { AgentRunner, RunOutcome, StartRunRequest } from "./agent-runner.js";
export type {
  ChannelCapabilities,
  Channel,
  ChannelResult,
  MediaAttachment,
  MessageAction,
  MessageRequest,
  PreparedRequest,
} from "./channel.js";
export type {
  CronDelivery,
  CronFailureDestination,
  CronJob,
  CronJobState,
  CronPayload,
  CronRunLogEntry,
  CronRunStatus,
  CronSchedule,
  CronSessionTarget,
  CronWakeMode,
  Page,
} from "./cron-job.js";
export type { CronStore } from "./cron-store.js";
export type { LeaderLease, LeaseHolder } from "./leader-lease.js";
export type { NodeHost, NodeInfo, PairingRequest } from "./node-host.js";
export type {
  AnnounceState,
  HolderLiveness,
  RunOwner,
  RunRecord,
  RunRegistry,
  RunStatus,
} from "./run-registry.js";
export {
  TERMINAL_TASK_STATUSES,
  type TaskError,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from "./task-store.js";
export {
  createLoopRunner,
  type LoopAgent,
  type LoopAgentParts,
  type LoopPrompt,
  type LoopRun,
  type LoopRunnerOptions,
  type LoopRunnerParts,
  type RunTools,
} from "./loop-run.js";
export { armTimeLimit, settleTurn, TranscriptWriter, type TurnAnswer, turnOutcome } from "./run-parts.js";
export { RECENT_OUTCOMES, type RunDriver, RunTable, type SessionRun } from "./run-table.js";
export { type TrackedRun, waitForRun } from "./run-wait.js";
export type { SessionCursor, SessionEntry, SessionPage, SessionStore } from "./session-store.js";
export type { MessageBlock, TranscriptMessage } from "./transcript.js";
