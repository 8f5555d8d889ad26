export {
  type AgentToAgentEvents,
  type AgentToAgentFlow,
  type AgentToAgentTurn,
  ANNOUNCE_SKIP,
  ANNOUNCE_STEP_MESSAGE,
  agentToAgentAnnounceContext,
  agentToAgentEvents,
  agentToAgentMessageContext,
  agentToAgentReplyContext,
  isAnnounceSkip,
  isReplySkip,
  MAX_PING_PONG_TURNS,
  pingPongTurns,
  REPLY_SKIP,
  runAgentToAgentFlow,
} from "./a2a.js";
export { BEGIN_CHILD, completionMessage, END_CHILD, statusText } from "./announce.js";
export {
  ATTACHMENTS_MAX_ITEMS,
  ATTACHMENTS_ROOT,
  type AttachmentLimits,
  type AttachmentReceipt,
  attachmentLimits,
  decodeStrictBase64,
  materializeAttachments,
  removeAttachments,
  type SpawnAttachment,
  sanitizeMountPath,
} from "./attachments.js";
export { capHistory, HISTORY_BYTES_MAX, HISTORY_TEXT_MAX, sanitizeMessage } from "./caps.js";
export { type SessionsConfig, SessionsConfigSchema } from "./config.js";
export type { SessionsEnv } from "./context.js";
export type { AgentRunner, RunOutcome, RunRegistry, SessionStore, StartRunRequest } from "./interfaces.js";
export { agentOf, isSubagentKey, kindOf, mainKey } from "./keys.js";
export { type LivenessOptions, lostReason, pidAlive, type RunOwner } from "./liveness.js";
export {
  createSessionsPlugin,
  NO_RUNNER,
  NO_YIELD,
  noLiveRun,
  type SessionsPlugin,
  type SessionsPluginOptions,
  sessionsPlugin,
  sessionsPlugin as default,
} from "./plugin.js";
export { type SessionsEvents, SessionsService } from "./service.js";
export { followUpsIdle } from "./follow-ups.js";
export { FileRunRegistry } from "./store/file-runs.js";
export { FileSessionStore } from "./store/file-store.js";
export { SPAWN_NOTE, SPAWN_NOTE_PULL, subagentMessage } from "./tools/sessions-spawn.js";
export { createSessionsYieldWaitTool, YIELD_IDLE } from "./tools/sessions-yield-wait.js";
export type {
  AnnounceState,
  MessageBlock,
  RunRecord,
  RunStatus,
  SessionEntry,
  TranscriptMessage,
} from "./types.js";
export {
  checkVisibility,
  inTree,
  type SessionAction,
  type Visibility,
  type VisibilityPolicy,
} from "./visibility.js";
export { type TrackedRun, waitForRun } from "./run-wait.js";
export { RECENT_OUTCOMES, RunTable } from "./run-table.js";
