export { type AutomationConfig, AutomationConfigSchema } from "./config.js";
export {
  type ChannelAnnouncer,
  CronExecutor,
  type DeliveryResult,
  type ExecutorOptions,
  mainSessionKey,
  NO_CHANNEL,
  NO_DELIVERY_TARGET,
  type RunResult,
  runSlot,
} from "./cron/executor.js";
export {
  type AgentTurnOutcome,
  type AgentTurnRunner,
  type Clock,
  type CronStore,
  type LeaderLease,
  type SinkMessage,
  type SystemEventSink,
  systemClock,
} from "./cron/interfaces.js";
export {
  applyPatch,
  buildJob,
  CronValidationError,
  isCronValidationError,
  MAX_INTERVAL_MS,
  MAX_STAGGER_MS,
  MAX_TIMEOUT_SECONDS,
  MIN_INTERVAL_MS,
} from "./cron/normalize.js";
export { type RunOutcome, settleRun } from "./cron/outcome.js";
export {
  backoffMs,
  DEFAULT_TOP_OF_HOUR_STAGGER_MS,
  ERROR_BACKOFF_MS,
  hostTimeZone,
  nextRunAfter,
  parseAt,
  staggerOffsetMs,
} from "./cron/schedule.js";
export { CLAIM_BATCH, CLAIM_HOLD_MS } from "./cron/claim-queue.js";
export {
  CronService,
  type CronServiceOptions,
  INTERRUPTED_ERROR,
  LEADER_LEASE_MS,
  LEADER_PROBE_MS,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  MAX_TIMER_MS,
  MISSED_ERROR,
  ONE_SHOT_RETRIES,
  type RunEnd,
  type RunReply,
  type SchedulerRole,
  STUCK_RUN_MS,
  isUnknownJobError,
  UnknownJobError,
} from "./cron/service.js";
export type {
  CronDelivery,
  CronJob,
  CronJobState,
  CronPayload,
  CronRunLogEntry,
  CronRunStatus,
  CronSchedule,
  CronSessionTarget,
  Page,
} from "./cron/types.js";
export { ConfigDocument, configHash, lookupSchema, mergePatch, REDACTED } from "./gateway/config-doc.js";
export {
  type AppConfigOptions,
  type AutomationPlugin,
  type AutomationPluginOptions,
  type AutomationSessions,
  automationPlugin,
  automationPlugin as default,
  createAutomationPlugin,
  NO_STATE_DIR,
} from "./plugin.js";
export {
  FileCronStore,
  type FileCronStoreOptions,
  RUN_LOG_KEEP_LINES,
  RUN_LOG_MAX_BYTES,
} from "./store/file-store.js";
export { FileLeaderLease } from "./store/file-lease.js";
export { InProcessLeaderLease } from "./store/memory-lease.js";
export {
  CRON_ACTIONS,
  contextBlock,
  createCronTool,
  cronSchema,
  notFoundText,
  recoverFlat,
} from "./tools/cron.js";
export { createGatewayTool } from "./tools/gateway.js";
export {
  GATEWAY_ACTIONS,
  gatewaySchema,
  NO_RESTART_HOOK,
  NO_UPDATER,
  PROTECTED_CONFIG_PATHS,
  RESTART_DISABLED,
  WRITES_DISABLED,
} from "./tools/gateway-schema.js";
