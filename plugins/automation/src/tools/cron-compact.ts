import type { CronJob } from "../cron/types.js";

// What `list` shows of a job: OpenClaw 9.6's compact summary (gateway cron.list with compact:
// true, which its cron tool always asks for) — timing, schedule, the last run — without the
// payload, delivery or description; `get` has the full job.

const iso = (ms: number | undefined) =>
  typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : null;

/** The agent a job runs as: its own, the one its session key names, or the default. */
function effectiveAgentId(job: CronJob, defaultAgentId: string): string | null {
  const fromKey = /^agent:([^:]+):/i.exec(job.sessionKey ?? "")?.[1];
  const id = job.agentId?.trim() || fromKey || defaultAgentId.trim();
  return id ? id.toLowerCase() : null;
}

export function compactCronJob(job: CronJob, defaultAgentId: string): Record<string, unknown> {
  const { state, schedule } = job;
  return {
    id: job.id,
    name: job.name,
    ...(job.agentId !== undefined ? { agentId: job.agentId } : {}),
    updatedAtMs: job.updatedAtMs,
    enabled: job.enabled,
    nextRunAt: iso(state.nextRunAtMs),
    nextRunAtMs: state.nextRunAtMs ?? null,
    scheduleKind: schedule.kind,
    schedule,
    lastRunAt: iso(state.lastRunAtMs),
    lastRunAtMs: state.lastRunAtMs ?? null,
    lastRunStatus: state.lastRunStatus ?? null,
    lastRunError: state.lastError ?? null,
    ...(state.runningAtMs !== undefined ? { runningAtMs: state.runningAtMs } : {}),
    ...(state.lastDeliveryStatus !== undefined ? { lastDeliveryStatus: state.lastDeliveryStatus } : {}),
    effectiveAgentId: effectiveAgentId(job, defaultAgentId),
  };
}
