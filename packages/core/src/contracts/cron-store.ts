import type { CronJob, CronJobState, CronRunLogEntry, Page } from "./cron-job.js";

/**
 * Where jobs and their run logs live. Every method is async and addresses jobs by id, so a
 * PostgreSQL store (`UPDATE … FOR UPDATE SKIP LOCKED … RETURNING` for `claimDue`) or a Redis one
 * (a ZSET scored by next run plus `SET lock:<id> NX PX`) satisfies it without touching the tools.
 */
export interface CronStore {
  /** Every job, ordered by next run (jobs without one last), then by id. */
  list(): Promise<CronJob[]>;
  /**
   * One page of `list()` (disabled jobs left out unless asked for) and how many jobs the full
   * listing has, at a cost that does not grow with the store (`ORDER BY … OFFSET … LIMIT`, or an
   * ordered index). Optional: without it the scheduler pages `list()` itself.
   */
  listPage?(page: {
    offset: number;
    limit: number;
    includeDisabled?: boolean;
  }): Promise<{ jobs: CronJob[]; total: number }>;
  /** How many jobs are stored (`status`); optional, `list().length` otherwise. */
  count?(): Promise<number>;
  get(id: string): Promise<CronJob | undefined>;
  /** Inserts or replaces the job with this id. */
  upsert(job: CronJob): Promise<void>;
  /** False when there was no such job. Its run log is removed with it. */
  remove(id: string): Promise<boolean>;
  /**
   * Claims up to `max` enabled jobs due at `nowMs` (`state.nextRunAtMs <= nowMs`) that no other
   * owner holds a live lease on, for `leaseMs`; marks them running (`state.runningAtMs = nowMs`).
   * Two owners never both claim the same job while a lease lasts. With `limits.clusterMax` (a
   * store with `sharedClaims`), the claim takes no more than leaves `clusterMax` jobs under live
   * claims of all owners together, counted and taken atomically.
   */
  claimDue(
    nowMs: number,
    owner: string,
    leaseMs: number,
    max: number,
    limits?: { clusterMax?: number },
  ): Promise<CronJob[]>;
  /**
   * Optional: `claimDue` (without a cluster-wide cap) and what `nextWakeAtMs(nowMs)` answers
   * once those claims are made, in one round trip: the scheduler arms its timer from it.
   */
  claimDueWithNext?(
    nowMs: number,
    owner: string,
    leaseMs: number,
    max: number,
  ): Promise<{ jobs: CronJob[]; nextWakeAtMs: number | undefined }>;
  /**
   * Claims one job whatever its next run (a forced `run`); undefined when it does not exist or
   * another owner holds its lease.
   */
  claim(id: string, nowMs: number, owner: string, leaseMs: number): Promise<CronJob | undefined>;
  /**
   * Ends `owner`'s lease on the job and merges `next` into its state (`runningAtMs` cleared).
   * `remove: true` deletes the job (deleteAfterRun); `disable: true` turns it off (a finished
   * one-shot). False when the lease was not held.
   */
  release(
    id: string,
    owner: string,
    next: Partial<CronJobState>,
    options?: { remove?: boolean; disable?: boolean },
  ): Promise<boolean>;
  /**
   * The earliest `state.nextRunAtMs` of an enabled job not held under a live lease at `nowMs`
   * (`SELECT min(next_run_at) …`, or the head of a Redis ZSET); what the timer is armed to.
   */
  nextWakeAtMs(nowMs: number): Promise<number | undefined>;
  /**
   * Appends a run's line to its job's log; durable when it resolves. The scheduler appends it
   * before `release`, so a store may write the released state lazily: after a crash, a job
   * still marked running whose last line has the same `runAtMs` is restored from that line.
   */
  appendRun(entry: CronRunLogEntry): Promise<void>;
  /**
   * Optional: `appendRun(entry)` then `release(entry.jobId, owner, next, options)` as one durable
   * write (one round trip for a server-backed store), with their results: it throws as
   * `appendRun` does when the line is refused, after the release was tried. Not for `remove`.
   */
  finishRun?(
    entry: CronRunLogEntry,
    owner: string,
    next: Partial<CronJobState>,
    options?: { disable?: boolean },
  ): Promise<boolean>;
  /** Newest first. */
  readRuns(jobId: string, page?: { offset?: number; limit?: number }): Promise<Page<CronRunLogEntry>>;
  /**
   * Jobs still marked running whose claim has ended: its holder's connection dropped (a killed
   * process, on a store that binds claims to their holder's liveness) or its lease ran out. The
   * leader recovers them (restored from their log line, or recorded as interrupted and run
   * again). Optional: without it, such jobs wait for their lease to end.
   */
  orphans?(nowMs: number): Promise<CronJob[]>;
  /**
   * Calls `listener` with the job id whenever any process adds, changes, releases or removes a
   * job (`"*"` when changes may have been missed), so a scheduler re-arms at once instead of at
   * its next capped wake-up; resolves to the unsubscribe once listening. `nextRunAtMs`, when the
   * notice carries it, is the job's next due time after the change (null: none, it was removed or
   * disabled), so a scheduler whose timer is already nearer need not look. Optional.
   */
  onChange?(listener: (jobId: string, nextRunAtMs?: number | null) => void): Promise<() => void>;
  /**
   * Optional, with `sharedClaims`: calls `listener` when a claim by any scheduler took due jobs,
   * with its owner and what `nextWakeAtMs` answered once its claims were made (null: nothing left
   * due; absent, with owner `"*"`, when notices may have been missed). A scheduler whose timer
   * stands at a due time that claim took moves it on instead of sending a claim that finds
   * nothing. Resolves to the unsubscribe once listening.
   */
  onClaim?(listener: (owner: string, nextWakeAtMs?: number | null) => void): Promise<() => void>;
  /**
   * Optional, with `sharedClaims`: how many processes are live on this store and this one's place
   * among them (0-based, one order for all), so the schedulers take turns to wake first at each
   * due time and the others wait for its claim's notice (`onClaim`) instead of racing it.
   */
  claimers?(): Promise<{ count: number; rank: number }>;
  /**
   * Every scheduler on this store may claim due jobs itself, not only the leader: claims are
   * bound to the claimer's liveness (a dead claimer's claims are listed by `orphans` at once) and
   * its late writes are fenced, so the leader lease only elects who recovers orphaned claims.
   * Absent (the embedded file store): only the leader fires.
   */
  readonly sharedClaims?: boolean;
  /** Writes whatever is still held in memory (called when the scheduler stops). */
  flush?(): Promise<void>;
  /** Where the jobs are kept (reported by `status`). */
  readonly location: string;
}
