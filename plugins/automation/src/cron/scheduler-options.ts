/** The scheduler's options and default periods (re-exported by scheduler.ts). */
import type { CronExecutor } from "./executor.js";
import type { Clock, CronStore, LeaderLease } from "./interfaces.js";
import type { CronRunStatus } from "./types.js";

/** The timer never sleeps longer than this, so edits made by another process are picked up. */
export const MAX_TIMER_MS = 60_000;
/**
 * A leader lease lasts this long unless renewed; the scheduler renews it (and a follower tries to
 * take it) every third of that, so a leader that dies is replaced within about this long.
 */
export const LEADER_LEASE_MS = 30_000;
/**
 * A follower tries the leader lease this often (and at once when the leader releases it); a
 * leader with a store that lists orphaned claims sweeps them this often. A leader killed on a
 * store that binds its lease to its connection is replaced within about this long.
 */
export const LEADER_PROBE_MS = 1_000;
/**
 * How long `stop()` waits for the runs in flight to end and be recorded. Their work has begun, so
 * a graceful stop lets them finish rather than leave a claim that the next scheduler would run
 * again; a run still going after this is left to recovery (recorded as interrupted).
 */
export const STOP_GRACE_MS = 10_000;
/** After a pass fails on the store (a dropped connection), the scheduler tries again this much later. */
export const RETRY_AFTER_ERROR_MS = 1_000;

export interface SchedulerOptions {
  store: CronStore;
  executor: CronExecutor;
  clock: Clock;
  owner: string;
  leaseMs: number;
  maxConcurrentRuns: number;
  catchUp: "off" | "once";
  /** False: jobs are stored and run on request, never by time. */
  timer: boolean;
  lease?: LeaderLease;
  /** How long the leader lease lasts unless renewed (default LEADER_LEASE_MS). */
  leaderTtlMs?: number;
  /** How often a follower probes the lease and a leader sweeps orphaned claims (default LEADER_PROBE_MS). */
  probeMs?: number;
  /**
   * At most this many jobs claimed at once by all schedulers on the store together (a store with
   * `sharedClaims`; ignored otherwise, where the leader alone fires). Unset: no cluster-wide cap.
   */
  clusterMaxConcurrentRuns?: number;
  /** How long `stop()` waits for the runs in flight (default STOP_GRACE_MS). */
  stopGraceMs?: number;
  /** Told of a pass that failed on the store; the scheduler tries again RETRY_AFTER_ERROR_MS later. */
  onError?: (error: unknown) => void;
}

/** The periods a scheduler runs with (`cron status`). */
export interface SchedulerTimings {
  leaderLeaseMs: number;
  claimLeaseMs: number;
  probeMs: number;
  clusterMaxConcurrentRuns?: number;
}

/** The periods a scheduler with these options runs with; the cap counts only where claims are shared. */
export function timingsOf(o: SchedulerOptions, sharedClaims: boolean): SchedulerTimings {
  const cap = sharedClaims ? o.clusterMaxConcurrentRuns : undefined;
  return {
    leaderLeaseMs: o.leaderTtlMs ?? LEADER_LEASE_MS,
    claimLeaseMs: o.leaseMs,
    probeMs: o.probeMs ?? LEADER_PROBE_MS,
    ...(cap !== undefined ? { clusterMaxConcurrentRuns: cap } : {}),
  };
}

/** How a run ended, as the scheduler reports it to whoever waits on it. */
export interface RunEnd {
  runId: string;
  status: CronRunStatus;
  error?: string;
  summary?: string;
}
