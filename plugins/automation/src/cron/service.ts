import { randomUUID } from "node:crypto";
import type { CronExecutor } from "./executor.js";
import { mainSessionKey } from "./executor.js";
import { type Clock, type CronStore, type LeaderLease, systemClock } from "./interfaces.js";
import { applyPatch, buildJob, CronValidationError, type JobDefaults } from "./normalize.js";
import { nextRunAfter, parseAt } from "./schedule.js";
import { CronScheduler, type RunEnd } from "./scheduler.js";
import type { CronJob, CronRunLogEntry, Page } from "./types.js";

export { ONE_SHOT_RETRIES } from "./outcome.js";
export { INTERRUPTED_ERROR, MISSED_ERROR } from "./recover.js";
export {
  LEADER_LEASE_MS,
  LEADER_PROBE_MS,
  MAX_TIMER_MS,
  type RunEnd,
  type SchedulerRole,
} from "./scheduler.js";

/** A run holding its lease longer than this is treated as stuck, and the job may be claimed again. */
export const STUCK_RUN_MS = 2 * 60 * 60_000;
/** `list` pages: 100 jobs by default, at most 500. */
export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 500;

export interface CronServiceOptions {
  store: CronStore;
  executor: CronExecutor;
  clock?: Clock;
  /** The scheduler timer runs (default true); false leaves jobs stored but never fired by time. */
  enabled?: boolean;
  /** Runs at the same time, across all jobs (default 1). */
  maxConcurrentRuns?: number;
  /**
   * Jobs claimed at once by all schedulers on the store together, where every scheduler fires
   * (a store with `sharedClaims`, such as PostgreSQL's); unset: no cluster-wide cap.
   */
  clusterMaxConcurrentRuns?: number;
  /** A job whose time passed while the process was down: runs once on start, or is skipped (default once). */
  catchUp?: "off" | "once";
  /** One scheduler per cluster; without one this process is the only scheduler of its store. */
  lease?: LeaderLease;
  /** How long a leader lease lasts unless renewed (default 30 s; renewed every third of it). */
  leaderTtlMs?: number;
  /** How often a follower probes the leader lease and a leader sweeps orphaned claims (default 1 s). */
  probeMs?: number;
  /**
   * How long `stop()` waits for the runs in flight to end and be recorded (default 10 s): a
   * graceful stop neither repeats nor loses them. One still running after it is left to
   * recovery, which records it as interrupted.
   */
  stopGraceMs?: number;
  /** This scheduler's name in leases (default a random id). */
  owner?: string;
  leaseMs?: number;
  defaultAgentId?: string;
  newId?: () => string;
  /**
   * Told of a scheduler pass that failed on the store (a dropped database connection, say); the
   * scheduler tries again a second later. Default: a process warning on stderr.
   */
  onError?: (error: unknown) => void;
}

/** What `run` answers at once (OpenClaw's `cron.run`): the run's outcome shows in `runs`. */
export type RunReply =
  | { ok: true; enqueued: true; runId: string }
  | { ok: true; ran: false; reason: "not-due" | "already-running" };

const UNKNOWN_JOB_ERROR = Symbol.for("clawtools.error.UnknownJobError");

export class UnknownJobError extends CronValidationError {
  static override readonly marker: symbol = UNKNOWN_JOB_ERROR;
  readonly [UNKNOWN_JOB_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_UNKNOWN_JOB";
  }
  constructor(readonly jobId: string) {
    super(`unknown cron job id: ${jobId}`);
  }
}

/** Whether `error` is an UnknownJobError from any copy of this package (its brand, not `instanceof`). */
export function isUnknownJobError(error: unknown): error is UnknownJobError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[UNKNOWN_JOB_ERROR] === true
  );
}

/** One line on stderr, no stack: the scheduler goes on and tries again. */
function warnSchedulerError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(`cron scheduler: a pass failed on the store (${message}); trying again in 1 s`);
}

/** The cron tool's actions over a store, with the scheduler (see scheduler.ts) that fires jobs by time. */
export class CronService {
  readonly store: CronStore;
  private readonly clock: Clock;
  private readonly executor: CronExecutor;
  private readonly scheduler: CronScheduler;
  /** This scheduler's name in leases and claims. */
  readonly owner: string;
  private readonly lease: LeaderLease | undefined;
  private readonly leaseMs: number;
  /** The agent a job without one runs as (OpenClaw's default agent, "main"). */
  readonly defaultAgentId: string;
  private readonly newId: () => string;
  private readonly schedulerEnabled: boolean;
  /** The outcome of each run this process started, by run id, while it runs. */
  private readonly runs_ = new Map<string, Promise<RunEnd>>();

  constructor(options: CronServiceOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.executor = options.executor;
    this.owner = options.owner ?? `cron-${randomUUID().slice(0, 8)}`;
    this.lease = options.lease;
    this.leaseMs = options.leaseMs ?? STUCK_RUN_MS;
    this.defaultAgentId = options.defaultAgentId ?? "main";
    this.newId = options.newId ?? (() => randomUUID());
    this.schedulerEnabled = options.enabled ?? true;
    this.scheduler = new CronScheduler({
      store: this.store,
      executor: this.executor,
      clock: this.clock,
      owner: this.owner,
      leaseMs: this.leaseMs,
      maxConcurrentRuns: Math.max(1, options.maxConcurrentRuns ?? 1),
      catchUp: options.catchUp ?? "once",
      timer: this.schedulerEnabled,
      ...(options.lease ? { lease: options.lease } : {}),
      ...(options.leaderTtlMs !== undefined ? { leaderTtlMs: options.leaderTtlMs } : {}),
      ...(options.probeMs !== undefined ? { probeMs: options.probeMs } : {}),
      ...(options.stopGraceMs !== undefined ? { stopGraceMs: Math.max(0, options.stopGraceMs) } : {}),
      ...(options.clusterMaxConcurrentRuns !== undefined
        ? { clusterMaxConcurrentRuns: Math.max(1, options.clusterMaxConcurrentRuns) }
        : {}),
      onError: options.onError ?? warnSchedulerError,
    });
  }

  /** Waits until no tick, timer re-arm or (unless `runs: false`) run is in progress; tests use it after moving a fake clock. */
  idle(options: { runs?: boolean } = {}): Promise<void> {
    return this.scheduler.idle(options);
  }

  /** Recovers from the last process (interrupted runs, missed runs) and arms the timer. Idempotent. */
  start(): Promise<void> {
    return this.scheduler.start();
  }

  /** Stops the timer; runs in progress finish and record themselves. */
  stop(): Promise<void> {
    return this.scheduler.stop();
  }

  /** Claims what is due and starts it, then re-arms the timer. */
  tick(): Promise<void> {
    return this.scheduler.tick();
  }

  /** Waits for a run this process started (by the id `run` answered); undefined once it is not running here. */
  outcome(runId: string): Promise<RunEnd> | undefined {
    return this.runs_.get(runId);
  }

  private rearm(): Promise<void> {
    return this.scheduler.track(this.scheduler.arm());
  }

  // ---- the tool's actions ----

  async status() {
    const count = this.store.count ? await this.store.count() : (await this.store.list()).length;
    const next = await this.store.nextWakeAtMs(this.clock.now());
    const holder = this.lease?.holder ? await this.lease.holder("cron") : undefined;
    return {
      enabled: this.schedulerEnabled,
      storePath: this.store.location,
      jobs: count,
      running: this.scheduler.runningCount,
      nextWakeAtMs: next ?? null,
      // who fires: this process's role, the lease's holder, what this process holds, the timings
      role: this.scheduler.role,
      // every scheduler on the store claims due jobs (the leader only recovers a dead one's claims)
      ...(this.scheduler.sharedClaims ? { sharedClaims: true } : {}),
      owner: this.owner,
      ...(this.lease?.holder ? { leader: holder ?? null } : {}),
      claims: this.scheduler.claims,
      timings: this.scheduler.timings,
    };
  }

  /** One page of jobs in next-run order; a store with `listPage` answers it without reading the rest. */
  async list(options: { includeDisabled?: boolean; offset?: number; limit?: number } = {}) {
    const offset = options.offset ?? 0;
    const limit = options.limit ?? LIST_DEFAULT_LIMIT;
    const includeDisabled = options.includeDisabled === true;
    let jobs: CronJob[];
    let total: number;
    if (this.store.listPage) {
      ({ jobs, total } = await this.store.listPage({ offset, limit, includeDisabled }));
    } else {
      const all = (await this.store.list()).filter((job) => includeDisabled || job.enabled);
      jobs = all.slice(offset, offset + limit);
      total = all.length;
    }
    const hasMore = offset + jobs.length < total;
    return { jobs, total, offset, limit, hasMore, nextOffset: hasMore ? offset + jobs.length : null };
  }

  async get(id: string): Promise<CronJob> {
    const job = await this.store.get(id);
    if (!job) throw new UnknownJobError(id);
    return job;
  }

  async add(input: Record<string, unknown>, defaults: Partial<JobDefaults> = {}): Promise<CronJob> {
    const now = this.clock.now();
    const base = buildJob(
      input,
      {
        agentId: defaults.agentId ?? this.defaultAgentId,
        defaultAgentId: this.defaultAgentId,
        ...(defaults.sessionKey ? { sessionKey: defaults.sessionKey } : {}),
      },
      { id: this.newId(), nowMs: now },
    );
    const job: CronJob = { ...base, state: {} };
    const next = this.firstRun(job, now);
    if (next !== undefined) job.state.nextRunAtMs = next;
    await this.store.upsert(job);
    await this.rearm();
    return job;
  }

  /** The first run of a new or rescheduled job: an `at` in the past runs at once. */
  private firstRun(job: CronJob, now: number): number | undefined {
    if (!job.enabled) return undefined;
    if (job.schedule.kind === "at") return parseAt(job.schedule.at);
    return nextRunAfter(job.schedule, now, job);
  }

  async update(id: string, patch: Record<string, unknown>): Promise<CronJob> {
    const job = await this.get(id);
    const now = this.clock.now();
    const next = applyPatch(job, patch, this.defaultAgentId, now);
    if (patch.schedule !== undefined || patch.enabled !== undefined) {
      const at = this.firstRun(next, now);
      if (at === undefined) delete next.state.nextRunAtMs;
      else next.state.nextRunAtMs = at;
      if (patch.enabled === true) next.state.consecutiveErrors = 0;
    }
    await this.store.upsert(next);
    await this.rearm();
    return next;
  }

  async remove(id: string): Promise<{ ok: true; removed: boolean }> {
    const removed = await this.store.remove(id);
    await this.rearm();
    return { ok: true, removed };
  }

  /**
   * Enqueues a run and answers at once with its id, as OpenClaw's `cron.run` does; the outcome
   * shows in `runs`. `force` runs whatever the schedule; `due` only when the job is due.
   */
  async run(id: string, mode: "due" | "force" = "force"): Promise<RunReply> {
    const job = await this.get(id);
    if (this.scheduler.isRunning(id)) return { ok: true, ran: false, reason: "already-running" };
    const now = this.clock.now();
    if (
      mode === "due" &&
      (!job.enabled || job.state.nextRunAtMs === undefined || job.state.nextRunAtMs > now)
    )
      return { ok: true, ran: false, reason: "not-due" };
    // claimed in a batch and waiting for a run slot here: the run uses that claim
    const claimed = this.scheduler.takeQueued(id)
      ? job
      : await this.store.claim(id, now, this.owner, this.leaseMs);
    if (!claimed) return { ok: true, ran: false, reason: "already-running" };
    const { runId, done } = this.scheduler.launch(claimed);
    this.runs_.set(runId, done);
    void done.finally(() => this.runs_.delete(runId)).catch(() => {});
    return { ok: true, enqueued: true, runId };
  }

  async runs(id: string, page: { offset?: number; limit?: number } = {}): Promise<Page<CronRunLogEntry>> {
    return this.store.readRuns(id, page);
  }

  /** Queues a system event into the main session (`wake`). */
  async wake(text: string, agentId = this.defaultAgentId): Promise<{ ok: true }> {
    await this.executor.queueSystemEvent(mainSessionKey(agentId), agentId, text);
    return { ok: true };
  }
}
