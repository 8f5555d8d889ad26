import { createHash } from "node:crypto";
import { Cron } from "croner";
import type { CronSchedule } from "./types.js";

/** Default stagger for top-of-hour expressions (`0 * * * *`), as OpenClaw spreads them. */
export const DEFAULT_TOP_OF_HOUR_STAGGER_MS = 5 * 60_000;
/** Error backoff: 30 s, 1 min, 5 min, 15 min, 60 min (then 60 min). */
export const ERROR_BACKOFF_MS = [30_000, 60_000, 300_000, 900_000, 3_600_000] as const;

/** The host's own time zone: what a cron expression without `tz` runs in. */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** ISO-8601 to epoch ms; a string without a zone designator is read as UTC. */
export function parseAt(at: string): number | undefined {
  const text = at.trim();
  if (!text) return undefined;
  const hasZone = /(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(text);
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const iso = hasZone || dateOnly ? text : `${text}Z`;
  if (!/^\d{4}-\d{2}-\d{2}/.test(iso)) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
}

/** True for `0 * * * *`-like expressions (minute 0, every hour), which get the default stagger. */
export function isTopOfHour(expr: string): boolean {
  const fields = expr.trim().split(/\s+/);
  const [seconds, minute, hour] = fields.length === 6 ? fields : ["0", ...fields];
  return seconds === "0" && minute === "0" && (hour === "*" || (hour?.startsWith("*/") ?? false));
}

/** The stagger a cron schedule runs with: its own, else 5 min for top-of-hour, else 0. */
export function effectiveStaggerMs(schedule: Extract<CronSchedule, { kind: "cron" }>): number {
  if (schedule.staggerMs !== undefined) return Math.max(0, Math.floor(schedule.staggerMs));
  return isTopOfHour(schedule.expr) ? DEFAULT_TOP_OF_HOUR_STAGGER_MS : 0;
}

/** A job's fixed offset inside its stagger window, derived from its id (stable across restarts). */
export function staggerOffsetMs(jobId: string, staggerMs: number): number {
  if (staggerMs <= 0) return 0;
  const digest = createHash("sha256").update(jobId).digest();
  return digest.readUInt32BE(0) % staggerMs;
}

const patterns = new Map<string, Cron>();
function pattern(expr: string, tz: string): Cron {
  const key = `${tz}\u0000${expr}`;
  let cron = patterns.get(key);
  if (!cron) {
    cron = new Cron(expr, { timezone: tz, paused: true });
    if (patterns.size > 1000) patterns.clear();
    patterns.set(key, cron);
  }
  return cron;
}

/** Throws croner's own error (`CronPattern: Invalid value for minute: 61`) for a bad expression or zone. */
export function validateCron(expr: string, tz?: string): void {
  if (tz !== undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
    } catch {
      throw new Error(`Invalid time zone: ${tz}`);
    }
  }
  pattern(expr, tz ?? hostTimeZone());
}

/** The first time the pattern matches strictly after `afterMs`, working around croner landing in the past. */
function cronNext(expr: string, tz: string, afterMs: number): number | undefined {
  const cron = pattern(expr, tz);
  const tryFrom = (ms: number) => cron.nextRun(new Date(ms))?.getTime();
  let next = tryFrom(afterMs);
  if (next !== undefined && next <= afterMs) next = tryFrom(Math.floor(afterMs / 1000) * 1000 + 1000);
  if (next !== undefined && next <= afterMs) {
    const midnight = new Date(afterMs);
    midnight.setUTCHours(24, 0, 0, 0);
    next = tryFrom(midnight.getTime());
  }
  return next !== undefined && next > afterMs ? next : undefined;
}

/**
 * The next time a schedule is due strictly after `afterMs`, or undefined when it never is again
 * (an `at` in the past). `every` counts from its anchor (default: the job's creation time).
 */
export function nextRunAfter(
  schedule: CronSchedule,
  afterMs: number,
  job: { id: string; createdAtMs: number },
): number | undefined {
  switch (schedule.kind) {
    case "at": {
      const at = parseAt(schedule.at);
      return at !== undefined && at > afterMs ? at : undefined;
    }
    case "every": {
      const every = Math.max(1, Math.floor(schedule.everyMs));
      const anchor = schedule.anchorMs ?? job.createdAtMs;
      if (afterMs < anchor) return anchor;
      return anchor + (Math.floor((afterMs - anchor) / every) + 1) * every;
    }
    case "cron": {
      const tz = schedule.tz ?? hostTimeZone();
      const offset = staggerOffsetMs(job.id, effectiveStaggerMs(schedule));
      const base = cronNext(schedule.expr, tz, afterMs - offset);
      return base === undefined ? undefined : base + offset;
    }
  }
}

/** When a job whose run just failed runs next: its schedule, but not before the backoff for its error count. */
export function backoffMs(consecutiveErrors: number): number {
  const index = Math.min(Math.max(consecutiveErrors, 1), ERROR_BACKOFF_MS.length) - 1;
  return ERROR_BACKOFF_MS[index] as number;
}

/** `nextRunAfter` for a stored job, undefined instead of a throw when its schedule no longer computes. */
export function safeNextRun(
  job: { id: string; createdAtMs: number; schedule: CronSchedule },
  afterMs: number,
): number | undefined {
  try {
    return nextRunAfter(job.schedule, afterMs, job);
  } catch {
    return undefined;
  }
}
