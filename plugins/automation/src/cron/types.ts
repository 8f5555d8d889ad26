// The job types live in core with the CronStore contract; re-exported unchanged.
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
} from "@clawtools/core/contracts";
