/**
 * OpenClaw's limits for exec sessions, each overridable by its environment variable (read when
 * a registry or tool is built, never at import) and by an explicit option, which wins.
 */
export const MAX_OUTPUT_CHARS = 200_000;
export const MAX_PENDING_CHARS = 30_000;
export const TAIL_CHARS = 2_000;
export const DEFAULT_YIELD_MS = 10_000;
export const DEFAULT_RETENTION_MS = 30 * 60_000;

/** A whole number from the first variable set to one, else undefined. */
function readEnvInt(env: NodeJS.ProcessEnv, ...names: string[]): number | undefined {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (raw && /^\d+$/.test(raw)) return Number(raw);
  }
  return undefined;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

export interface SessionLimits {
  /** Whole output kept per session (the tail): 1,000..200,000 chars. */
  maxOutputChars: number;
  /** Output not yet polled: 1,000..200,000 chars. */
  pendingMaxOutputChars: number;
  /** How long finished sessions stay listed: 1 min..3 h. */
  retentionMs: number;
}

export function resolveSessionLimits(
  options: Partial<SessionLimits> = {},
  env: NodeJS.ProcessEnv = process.env,
): SessionLimits {
  const maxOutput =
    options.maxOutputChars ?? readEnvInt(env, "OPENCLAW_BASH_MAX_OUTPUT_CHARS", "PI_BASH_MAX_OUTPUT_CHARS");
  const pending = options.pendingMaxOutputChars ?? readEnvInt(env, "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS");
  const retention = options.retentionMs ?? readEnvInt(env, "PI_BASH_JOB_TTL_MS");
  return {
    maxOutputChars: clamp(maxOutput ?? MAX_OUTPUT_CHARS, 1_000, MAX_OUTPUT_CHARS),
    pendingMaxOutputChars: clamp(pending ?? MAX_PENDING_CHARS, 1_000, MAX_OUTPUT_CHARS),
    retentionMs: clamp(retention ?? DEFAULT_RETENTION_MS, 60_000, 3 * 60 * 60_000),
  };
}

/** The yield window: the option, else PI_BASH_YIELD_MS, else 10 s; always 10 ms..120 s. */
export function resolveYieldMs(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  return clampYield(option ?? readEnvInt(env, "PI_BASH_YIELD_MS") ?? DEFAULT_YIELD_MS);
}

export const clampYield = (ms: number) => clamp(ms, 10, 120_000);
