import { isTopOfHour, parseAt, validateCron } from "./schedule.js";
import type {
  CronDelivery,
  CronJob,
  CronPayload,
  CronSchedule,
  CronSessionTarget,
  CronWakeMode,
} from "./types.js";

const CRON_VALIDATION_ERROR = Symbol.for("clawtools.error.CronValidationError");

/** A validation failure of a job or patch; the tool reports it as `invalid cron.<action> params: <message>`. */
export class CronValidationError extends Error {
  static readonly marker: symbol = CRON_VALIDATION_ERROR;
  readonly [CRON_VALIDATION_ERROR] = true;
  override name = "CronValidationError";
}

/** Whether `error` is a CronValidationError from any copy of this package (its brand, not `instanceof`). */
export function isCronValidationError(error: unknown): error is CronValidationError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[CRON_VALIDATION_ERROR] === true
  );
}

const fail = (message: string): never => {
  throw new CronValidationError(message);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;

/**
 * The shortest `every` interval: a job `every` 1 ms ran 200 times in 3 s. Cron expressions fire
 * at most once a second (croner's finest field), so only `every` can go below it.
 */
export const MIN_INTERVAL_MS = 1_000;
/** The longest `every` interval (10 years); larger values only overflow the time arithmetic. */
export const MAX_INTERVAL_MS = 10 * 365 * 86_400_000;
/** The latest time a JavaScript Date holds (anchorMs). */
export const MAX_TIME_MS = 8_640_000_000_000_000;
/** The longest stagger window (one day). */
export const MAX_STAGGER_MS = 86_400_000;
/** The longest agent turn (24 h): longer limits overflow Node's timers and fire at once. */
export const MAX_TIMEOUT_SECONDS = 86_400;

const num = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() && Number.isFinite(Number(value))) return Number(value);
  return undefined;
};

export function normalizeSchedule(input: unknown): CronSchedule {
  if (!isObject(input)) return fail("schedule required");
  const kind =
    str(input.kind) ??
    (input.at !== undefined ? "at" : input.everyMs !== undefined ? "every" : input.expr ? "cron" : undefined);
  if (kind === "at") {
    const at = str(input.at) ?? fail('schedule.kind="at" requires schedule.at (ISO-8601)');
    if (parseAt(at) === undefined) fail(`schedule.at is not a valid ISO-8601 time: ${at}`);
    return { kind: "at", at };
  }
  if (kind === "every") {
    const everyMs = num(input.everyMs);
    if (everyMs === undefined) return fail('schedule.kind="every" requires schedule.everyMs (ms, >= 1000)');
    if (everyMs < MIN_INTERVAL_MS)
      fail(`schedule.everyMs ${everyMs} is below the minimum interval of ${MIN_INTERVAL_MS} ms (1 s)`);
    if (everyMs > MAX_INTERVAL_MS)
      fail(`schedule.everyMs ${everyMs} is above the maximum interval of ${MAX_INTERVAL_MS} ms (10 years)`);
    const anchorMs = num(input.anchorMs);
    if (input.anchorMs !== undefined && (anchorMs === undefined || anchorMs < 0 || anchorMs > MAX_TIME_MS))
      fail(`schedule.anchorMs must be epoch ms between 0 and ${MAX_TIME_MS} (got ${String(input.anchorMs)})`);
    return {
      kind: "every",
      everyMs: Math.floor(everyMs),
      ...(anchorMs !== undefined ? { anchorMs: Math.floor(anchorMs) } : {}),
    };
  }
  if (kind === "cron") {
    const expr = str(input.expr) ?? fail('schedule.kind="cron" requires schedule.expr');
    const tz = str(input.tz);
    try {
      validateCron(expr, tz);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    const staggerMs = num(input.staggerMs);
    if (
      input.staggerMs !== undefined &&
      (staggerMs === undefined || staggerMs < 0 || staggerMs > MAX_STAGGER_MS)
    )
      fail(`schedule.staggerMs must be between 0 and ${MAX_STAGGER_MS} ms (got ${String(input.staggerMs)})`);
    return {
      kind: "cron",
      expr,
      ...(tz ? { tz } : {}),
      ...(staggerMs !== undefined ? { staggerMs: Math.floor(staggerMs) } : {}),
    };
  }
  return fail(`schedule.kind must be one of at, every, cron${kind ? ` (got "${kind}")` : ""}`);
}

export function normalizePayload(input: unknown): CronPayload {
  if (!isObject(input)) return fail("payload required");
  const kind =
    str(input.kind) ??
    (input.message !== undefined ? "agentTurn" : input.text !== undefined ? "systemEvent" : undefined);
  if (kind === "systemEvent") {
    const text = str(input.text) ?? str(input.message) ?? fail('payload.kind="systemEvent" requires text');
    return { kind: "systemEvent", text };
  }
  if (kind === "agentTurn") {
    const message =
      str(input.message) ?? str(input.text) ?? fail('payload.kind="agentTurn" requires message');
    const out: Extract<CronPayload, { kind: "agentTurn" }> = { kind: "agentTurn", message };
    const model = str(input.model);
    if (model) out.model = model;
    const thinking = str(input.thinking);
    if (thinking) out.thinking = thinking;
    const timeoutSeconds = num(input.timeoutSeconds);
    if (input.timeoutSeconds !== undefined && timeoutSeconds === undefined)
      fail(`payload.timeoutSeconds must be a number of seconds (got ${String(input.timeoutSeconds)})`);
    if (timeoutSeconds !== undefined) {
      if (timeoutSeconds <= 0) fail("payload.timeoutSeconds must be > 0");
      if (timeoutSeconds > MAX_TIMEOUT_SECONDS)
        fail(`payload.timeoutSeconds must be at most ${MAX_TIMEOUT_SECONDS} (24 h) (got ${timeoutSeconds})`);
      out.timeoutSeconds = timeoutSeconds;
    }
    if (typeof input.lightContext === "boolean") out.lightContext = input.lightContext;
    if (typeof input.allowUnsafeExternalContent === "boolean")
      out.allowUnsafeExternalContent = input.allowUnsafeExternalContent;
    if (Array.isArray(input.fallbacks))
      out.fallbacks = input.fallbacks.filter((f): f is string => typeof f === "string");
    if (input.toolsAllow === null) out.toolsAllow = null;
    else if (Array.isArray(input.toolsAllow))
      out.toolsAllow = input.toolsAllow.filter((t): t is string => typeof t === "string");
    return out;
  }
  return fail(`payload.kind must be one of systemEvent, agentTurn${kind ? ` (got "${kind}")` : ""}`);
}

export function normalizeSessionTarget(input: unknown): CronSessionTarget {
  const target = str(input) ?? fail("sessionTarget required");
  if (target === "main" || target === "isolated" || target === "current") return target;
  if (target.startsWith("session:")) {
    const id = target.slice("session:".length).trim();
    if (!id) fail('sessionTarget "session:<id>" requires a session id');
    return `session:${id}`;
  }
  return fail(`sessionTarget must be main, isolated, current or session:<id> (got "${target}")`);
}

export function isHttpUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export function normalizeDelivery(input: unknown): CronDelivery | undefined {
  if (input === undefined || input === null) return undefined;
  if (!isObject(input)) return fail("delivery must be an object");
  const mode = str(input.mode) ?? "announce";
  if (mode !== "none" && mode !== "announce" && mode !== "webhook")
    fail(`delivery.mode must be one of none, announce, webhook (got "${mode}")`);
  const out: CronDelivery = { mode: mode as CronDelivery["mode"] };
  for (const key of ["channel", "to", "accountId"] as const) {
    const value = str(input[key]);
    if (value) out[key] = value;
  }
  if (typeof input.bestEffort === "boolean") out.bestEffort = input.bestEffort;
  if (isObject(input.failureDestination)) {
    const f = input.failureDestination;
    out.failureDestination = {
      ...(str(f.channel) ? { channel: str(f.channel) } : {}),
      ...(str(f.to) ? { to: str(f.to) } : {}),
      ...(str(f.accountId) ? { accountId: str(f.accountId) } : {}),
      ...(f.mode === "announce" || f.mode === "webhook" ? { mode: f.mode } : {}),
    };
  }
  return out;
}

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
