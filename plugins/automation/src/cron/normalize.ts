import { isTopOfHour } from "./schedule.js";
import type { CronJob, CronPayload, CronSchedule, CronWakeMode } from "./types.js";
import { fail } from "./validation-error.js";
import {
  isHttpUrl,
  isObject,
  normalizeDelivery,
  normalizePayload,
  normalizeSchedule,
  normalizeSessionTarget,
  str,
} from "./normalize-fields.js";

export { CronValidationError, isCronValidationError } from "./validation-error.js";

export {
  isHttpUrl,
  MAX_INTERVAL_MS,
  MAX_STAGGER_MS,
  MAX_TIME_MS,
  MAX_TIMEOUT_SECONDS,
  MIN_INTERVAL_MS,
  normalizeDelivery,
  normalizePayload,
  normalizeSchedule,
  normalizeSessionTarget,
} from "./normalize-fields.js";

export interface JobDefaults {
  agentId: string;
  defaultAgentId: string;
  sessionKey?: string;
}

/** OpenClaw's cross-field rules (`src/cron/service/jobs.ts`), with its error texts. */
export function assertJobRules(
  job: Pick<CronJob, "sessionTarget" | "payload" | "delivery" | "agentId">,
  defaultAgentId: string,
): void {
  if (job.sessionTarget === "main" && job.payload.kind !== "systemEvent")
    fail('main cron jobs require payload.kind="systemEvent"');
  if (job.sessionTarget !== "main" && job.payload.kind !== "agentTurn")
    fail('isolated/current/session cron jobs require payload.kind="agentTurn"');
  if (job.sessionTarget === "main" && job.agentId && job.agentId !== defaultAgentId)
    fail(
      `cron: sessionTarget "main" is only valid for the default agent. Use sessionTarget "isolated" with payload.kind "agentTurn" for agent "${job.agentId}".`,
    );
  const delivery = job.delivery;
  if (!delivery) return;
  if (delivery.mode === "webhook" && !isHttpUrl(delivery.to))
    fail("cron webhook delivery requires delivery.to to be a valid http(s) URL");
  if (delivery.mode === "announce" && (delivery.channel || delivery.to) && job.sessionTarget !== "isolated")
    fail('cron channel delivery config is only supported for sessionTarget="isolated"');
  if (delivery.failureDestination && job.sessionTarget !== "isolated" && delivery.mode !== "webhook")
    fail(
      'cron delivery.failureDestination is only supported for sessionTarget="isolated" unless delivery.mode="webhook"',
    );
}

const wakeModeOf = (value: unknown): CronWakeMode => {
  if (value === undefined) return "now";
  if (value === "now" || value === "next-heartbeat") return value;
  return fail(`wakeMode must be now or next-heartbeat (got "${String(value)}")`);
};

/** Builds a new job from the tool's `job` object: defaults filled, every rule checked. */
export function buildJob(
  input: Record<string, unknown>,
  defaults: JobDefaults,
  ids: { id: string; nowMs: number },
): Omit<CronJob, "state"> {
  const schedule = normalizeSchedule(input.schedule);
  const payload = normalizePayload(input.payload);
  const sessionTarget =
    input.sessionTarget === undefined
      ? payload.kind === "systemEvent"
        ? "main"
        : "isolated"
      : normalizeSessionTarget(input.sessionTarget);
  let delivery = normalizeDelivery(input.delivery);
  if (!delivery && payload.kind === "agentTurn" && sessionTarget === "isolated") {
    // an isolated agent turn announces its result; the peer of a direct-chat session is the default target
    const peer = /^agent:[^:]+:([^:]+):direct:(.+)$/.exec(defaults.sessionKey ?? "");
    delivery = peer
      ? { mode: "announce", channel: peer[1] as string, to: peer[2] as string }
      : { mode: "announce" };
  }
  const agentId = str(input.agentId) ?? defaults.agentId;
  const job: Omit<CronJob, "state"> = {
    id: ids.id,
    name: str(input.name) ?? defaultName(schedule, payload),
    ...(str(input.description) ? { description: str(input.description) } : {}),
    agentId,
    ...((str(input.sessionKey) ?? defaults.sessionKey)
      ? { sessionKey: str(input.sessionKey) ?? defaults.sessionKey }
      : {}),
    enabled: input.enabled === undefined ? true : input.enabled === true,
    ...(input.deleteAfterRun !== undefined
      ? { deleteAfterRun: input.deleteAfterRun === true }
      : schedule.kind === "at"
        ? { deleteAfterRun: true }
        : {}),
    createdAtMs: ids.nowMs,
    updatedAtMs: ids.nowMs,
    schedule:
      schedule.kind === "every" && schedule.anchorMs === undefined
        ? { ...schedule, anchorMs: ids.nowMs }
        : schedule,
    sessionTarget,
    wakeMode: wakeModeOf(input.wakeMode),
    payload,
    ...(delivery ? { delivery } : {}),
    ...(input.failureAlert === false
      ? { failureAlert: false }
      : isObject(input.failureAlert)
        ? { failureAlert: input.failureAlert }
        : {}),
  };
  assertJobRules(job, defaults.defaultAgentId);
  return job;
}

function defaultName(schedule: CronSchedule, payload: CronPayload): string {
  const what = payload.kind === "systemEvent" ? payload.text : payload.message;
  const when =
    schedule.kind === "at"
      ? schedule.at
      : schedule.kind === "every"
        ? `every ${schedule.everyMs} ms`
        : schedule.expr;
  return `${what.slice(0, 40)} (${when})`;
}

/** Applies a patch to a job (`cron.update`): only the given keys change; the result is checked again. */
export function applyPatch(
  job: CronJob,
  patch: Record<string, unknown>,
  defaultAgentId: string,
  nowMs: number,
): CronJob {
  const next: CronJob = structuredClone(job);
  if (patch.name !== undefined) next.name = str(patch.name) ?? fail("name must be a non-empty string");
  if (patch.description !== undefined) {
    const description = str(patch.description);
    if (description) next.description = description;
    else delete next.description;
  }
  if (patch.enabled !== undefined) next.enabled = patch.enabled === true;
  if (patch.deleteAfterRun !== undefined) next.deleteAfterRun = patch.deleteAfterRun === true;
  if (patch.agentId !== undefined) next.agentId = str(patch.agentId) ?? job.agentId;
  if (patch.sessionKey !== undefined) next.sessionKey = str(patch.sessionKey) ?? job.sessionKey;
  if (patch.wakeMode !== undefined) next.wakeMode = wakeModeOf(patch.wakeMode);
  if (patch.schedule !== undefined) {
    const schedule = normalizeSchedule(
      isObject(patch.schedule) && !patch.schedule.kind && job.schedule.kind
        ? { ...job.schedule, ...patch.schedule }
        : patch.schedule,
    );
    next.schedule =
      schedule.kind === "every" && schedule.anchorMs === undefined
        ? { ...schedule, anchorMs: nowMs }
        : schedule;
  }
  if (patch.payload !== undefined) {
    if (!isObject(patch.payload)) fail("payload must be an object");
    const p = patch.payload as Record<string, unknown>;
    const kind = str(p.kind) ?? job.payload.kind;
    if (
      kind === "systemEvent" &&
      !str(p.text) &&
      !(job.payload.kind === "systemEvent" && p.kind === undefined)
    )
      fail('cron.update payload.kind="systemEvent" requires text');
    next.payload = normalizePayload(kind === job.payload.kind ? { ...job.payload, ...p } : { ...p, kind });
  }
  if (patch.sessionTarget !== undefined) next.sessionTarget = normalizeSessionTarget(patch.sessionTarget);
  if (patch.delivery !== undefined) {
    const delivery = normalizeDelivery(
      isObject(patch.delivery) && job.delivery ? { ...job.delivery, ...patch.delivery } : patch.delivery,
    );
    if (delivery) next.delivery = delivery;
    else delete next.delivery;
  }
  if (patch.failureAlert !== undefined) {
    if (patch.failureAlert === false) next.failureAlert = false;
    else if (isObject(patch.failureAlert)) next.failureAlert = patch.failureAlert;
  }
  next.updatedAtMs = nowMs;
  assertJobRules(next, defaultAgentId);
  return next;
}

export { isTopOfHour };
