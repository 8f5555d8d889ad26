import { parseAt, validateCron } from "./schedule.js";
import type { CronDelivery, CronPayload, CronSchedule, CronSessionTarget } from "./types.js";
import { fail } from "./validation-error.js";

// Each field of a job on its own: schedule, payload, session target and delivery, with their limits.

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const str = (value: unknown): string | undefined =>
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

export const num = (value: unknown): number | undefined => {
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
