/** Code mode's limits; the defaults are OpenClaw 9.6's. */
export type CodeLimits = {
  /** Wall-clock budget of one `exec` or `wait`, guest work and inline tool waits together. */
  timeoutMs: number;
  /** QuickJS heap per run. */
  memoryLimitBytes: number;
  /** Output, final value and error share this many bytes across a run's results. */
  maxOutputBytes: number;
  /** Tool calls in flight at once; more wait in the guest's queue. */
  maxPendingToolCalls: number;
  /** Calls the guest may queue beyond those in flight. */
  maxQueuedToolCalls: number;
  /** One call's arguments, and one reply's JSON, in bytes. */
  maxRequestBytes: number;
  maxReplyBytes: number;
  /** How long a `waiting` run is kept for `wait`. */
  snapshotTtlSeconds: number;
  searchDefaultLimit: number;
  maxSearchLimit: number;
};

export const DEFAULT_CODE_LIMITS: Readonly<CodeLimits> = Object.freeze({
  timeoutMs: 10_000,
  memoryLimitBytes: 64 * 1024 * 1024,
  maxOutputBytes: 64 * 1024,
  maxPendingToolCalls: 16,
  maxQueuedToolCalls: 128,
  maxRequestBytes: 10 * 1024 * 1024,
  maxReplyBytes: 10 * 1024 * 1024,
  snapshotTtlSeconds: 900,
  searchDefaultLimit: 8,
  maxSearchLimit: 50,
});

// OpenClaw 9.6's clamps for the configurable limits
const CLAMPS: Partial<Record<keyof CodeLimits, [number, number]>> = {
  timeoutMs: [100, 60_000],
  memoryLimitBytes: [1_048_576, 1_073_741_824],
  maxOutputBytes: [1024, 10_485_760],
  maxPendingToolCalls: [1, 128],
  snapshotTtlSeconds: [1, 86_400],
  maxSearchLimit: [1, 50],
};

export function resolveCodeLimits(overrides: Partial<CodeLimits> = {}): CodeLimits {
  const limits = { ...DEFAULT_CODE_LIMITS };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof CodeLimits, number | undefined]>) {
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) continue;
    const [min, max] = CLAMPS[key] ?? [1, Number.MAX_SAFE_INTEGER];
    limits[key] = Math.min(max, Math.max(min, value));
  }
  limits.searchDefaultLimit = Math.min(limits.searchDefaultLimit, limits.maxSearchLimit);
  return limits;
}
