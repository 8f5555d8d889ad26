import { randomUUID } from "node:crypto";
import type { CronExecutor, RunResult } from "./executor.js";
import { mainSessionKey } from "./executor.js";
import { type Clock, type CronStore, type LeaderLease, systemClock } from "./interfaces.js";
import { applyPatch, buildJob, CronValidationError, type JobDefaults } from "./normalize.js";
import { backoffMs, nextRunAfter, parseAt } from "./schedule.js";
import type { CronJob, CronJobState, CronRunLogEntry, CronRunStatus, Page } from "./types.js";

/** The timer never sleeps longer than this, so edits made by another process are picked up. */
export const MAX_TIMER_MS = 60_000;
/** A run holding its lease longer than this is treated as stuck, and the job may be claimed again. */
export const STUCK_RUN_MS = 2 * 60 * 60_000;
/** A one-shot job retries a transient error this many times before it is turned off. */
export const ONE_SHOT_RETRIES = 3;
const TRANSIENT =
  /rate.?limit|overloaded|network|timed? ?out|timeout|ECONNRESET|ECONNREFUSED|EAI_AGAIN|socket hang up|\b5\d\d\b/i;
const SUMMARY_MAX = 2_000;

export const INTERRUPTED_ERROR = "interrupted: the process stopped while the job was running";
export const MISSED_ERROR = "missed: the scheduler was not running at the scheduled time (catchUp=off)";

export interface CronServiceOptions {
  store: CronStore;
  executor: CronExecutor;
  clock?: Clock;
  /** The scheduler timer runs (default true); false leaves jobs stored but never fired by time. */
  enabled?: boolean;
  /** Runs at the same time, across all jobs (default 1). */
  maxConcurrentRuns?: number;
  /** A job whose time passed while the process was down: runs once on start, or is skipped (default once). */
  catchUp?: "off" | "once";
  /** One scheduler per cluster; without one this process is the only scheduler of its store. */
  lease?: LeaderLease;
  /** This scheduler's name in leases (default a random id). */
  owner?: string;
  leaseMs?: number;
  defaultAgentId?: string;
  newId?: () => string;
}

export type RunReply =
  | { ok: true; ran: true; status: CronRunStatus; error?: string; summary?: string }
  | { ok: true; enqueued: true; runId: string }
  | { ok: true; ran: false; reason: "not-due" | "already-running" | "disabled" }
  | { ok: false; error: string };

export class UnknownJobError extends CronValidationError {
  constructor(id: string) {
    super(`unknown cron job id: ${id}`);
  }
}

/**
 * The scheduler: one timer to the nearest due job (capped at 60 s), due jobs claimed through the
 * store's lease, run through the executor, and their outcome recorded when they finish.
 */
export class CronService {
  readonly store: CronStore;
  private readonly clock: Clock;
  private readonly executor: CronExecutor;
  private readonly owner: string;
  private readonly leaseMs: number;
  private readonly maxConcurrent: number;
  private readonly catchUp: "off" | "once";
  private readonly defaultAgentId: string;
  private readonly newId: () => string;
  private readonly schedulerEnabled: boolean;
  private timer: unknown;
  private timerAtMs: number | undefined;
  private started = false;
  private stopped = false;
  private readonly running = new Map<string, Promise<RunReply>>();
  private pending = new Set<Promise<unknown>>();
  private ticking: Promise<void> | undefined;
  private tickAgain = false;

  constructor(private readonly options: CronServiceOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.executor = options.executor;
    this.owner = options.owner ?? `cron-${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? STUCK_RUN_MS;
    this.maxConcurrent = Math.max(1, options.maxConcurrentRuns ?? 1);
    this.catchUp = options.catchUp ?? "once";
    this.defaultAgentId = options.defaultAgentId ?? "main";
    this.newId = options.newId ?? (() => randomUUID());
    this.schedulerEnabled = options.enabled ?? true;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => {});
    return promise;
  }

  /**
   * Waits until no tick, timer re-arm or (unless `runs: false`) run is in progress; tests use it
   * after moving a fake clock.
   */
  async idle(options: { runs?: boolean } = {}): Promise<void> {
    for (;;) {
      const waiting = [...this.pending, ...(options.runs === false ? [] : this.running.values())];
      if (this.ticking) waiting.push(this.ticking);
      if (waiting.length === 0) return;
      await Promise.allSettled(waiting);
    }
  }

  /** Recovers from the last process (interrupted runs, missed runs) and arms the timer. Idempotent. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    if (!this.options.lease || (await this.options.lease.acquire("cron", this.owner, this.leaseMs)))
      await this.track(this.recover());
    await this.track(this.arm());
  }

  /** Stops the timer; runs in progress finish and record themselves. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.started = false;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = undefined;
    if (this.ticking) await this.ticking.catch(() => {});
    await this.store.flush?.();
    await this.options.lease?.release("cron", this.owner);
  }

  private async recover(): Promise<void> {
    const now = this.clock.now();
    for (const job of await this.store.list()) {
      const state: CronJobState = { ...job.state };
      let changed = false;
      let disable = false;
      if (state.runningAtMs !== undefined) {
        const last = (await this.store.readRuns(job.id, { limit: 1 })).entries[0];
        if (last && last.runAtMs === state.runningAtMs && last.status !== "interrupted") {
          // the run finished and logged itself; only the job's new state had not been stored
          state.lastRunAtMs = last.runAtMs;
          state.lastRunStatus = last.status;
          if (last.error) state.lastError = last.error;
          else delete state.lastError;
          if (last.durationMs !== undefined) state.lastDurationMs = last.durationMs;
          if (last.deliveryStatus) state.lastDeliveryStatus = last.deliveryStatus;
          state.consecutiveErrors = last.status === "error" ? (state.consecutiveErrors ?? 0) + 1 : 0;
          if (last.nextRunAtMs === undefined) {
            delete state.nextRunAtMs;
            disable = true;
          } else state.nextRunAtMs = last.nextRunAtMs;
        } else {
          await this.store.appendRun({
            ts: now,
            jobId: job.id,
            action: "finished",
            status: "interrupted",
            error: INTERRUPTED_ERROR,
            runAtMs: state.runningAtMs,
            ...(job.sessionKey ? { sessionKey: job.sessionKey } : {}),
          });
          state.lastRunAtMs = state.runningAtMs;
          state.lastRunStatus = "interrupted";
          state.lastError = INTERRUPTED_ERROR;
        }
        delete state.runningAtMs;
        changed = true;
      }
      if (job.enabled && state.nextRunAtMs === undefined && state.lastRunAtMs === undefined) {
        const next = this.safeNext(job, now);
        if (next !== undefined) state.nextRunAtMs = next;
        changed = true;
      }
      if (
        job.enabled &&
        state.nextRunAtMs !== undefined &&
        state.nextRunAtMs <= now &&
        this.catchUp === "off"
      ) {
        await this.store.appendRun({
          ts: now,
          jobId: job.id,
          action: "finished",
          status: "skipped",
          error: MISSED_ERROR,
          runAtMs: state.nextRunAtMs,
        });
        const next = this.safeNext(job, now);
        if (next === undefined) {
          delete state.nextRunAtMs;
          disable = true;
        } else state.nextRunAtMs = next;
        changed = true;
      }
      if (changed) await this.store.upsert({ ...job, enabled: disable ? false : job.enabled, state });
    }
  }

  private safeNext(job: CronJob, afterMs: number): number | undefined {
    try {
      return nextRunAfter(job.schedule, afterMs, job);
    } catch {
      return undefined;
    }
  }

  /** Sets the one timer to the nearest due job (or 60 s from now). */
  private async arm(): Promise<void> {
    if (this.stopped || !this.started || !this.schedulerEnabled) return;
    const now = this.clock.now();
    let nearest = now + MAX_TIMER_MS;
    if (this.running.size < this.maxConcurrent) {
      const next = await this.store.nextWakeAtMs(now);
      if (next !== undefined && next < nearest) nearest = next;
    }
    if (this.stopped || !this.started) return;
    const at = Math.max(nearest, this.clock.now());
    if (this.timer !== undefined && this.timerAtMs !== undefined && this.timerAtMs <= at) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timerAtMs = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAtMs = undefined;
      void this.tick();
    }, at - this.clock.now());
  }

  /** Claims what is due and starts it; then re-arms. */
  tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      do {
        this.tickAgain = false;
        await this.claimAndLaunch();
      } while (this.tickAgain && !this.stopped);
    })().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking.then(() => this.track(this.arm()));
  }

  private async claimAndLaunch(): Promise<void> {
    if (this.stopped || !this.started) return;
    const lease = this.options.lease;
    if (lease) {
      if (!(await lease.renew("cron", this.owner, this.leaseMs))) {
        // a new leader first recovers what the last one left (interrupted and missed runs)
        if (!(await lease.acquire("cron", this.owner, this.leaseMs))) return;
        await this.recover();
      }
    }
    const capacity = this.maxConcurrent - this.running.size;
    if (capacity <= 0) return;
    const claimed = await this.store.claimDue(this.clock.now(), this.owner, this.leaseMs, capacity);
    for (const job of claimed) this.launch(job);
  }

  private launch(job: CronJob): { runId: string; done: Promise<RunReply> } {
    const runId = randomUUID();
    const done = this.execute(job, runId).finally(() => {
      this.running.delete(job.id);
      // a freed slot goes straight to the next due job
      if (!this.stopped) void this.track(this.tick());
    });
    this.running.set(job.id, done);
    return { runId, done };
  }

  private async execute(job: CronJob, runId: string): Promise<RunReply> {
    const runAtMs = this.clock.now();
    const result: RunResult = await this.executor.run(job, runId, runAtMs);
    const delivery =
      result.status === "skipped"
        ? { delivered: false, deliveryStatus: "not-requested" as const }
        : await this.executor.deliver(job, result, runAtMs, this.clock.now() - runAtMs);
    let status = result.status;
    let error = result.error;
    if (delivery.deliveryStatus === "failed" && status === "ok" && job.delivery?.bestEffort !== true) {
      status = "error";
      error = `delivery failed: ${delivery.deliveryError ?? "unknown error"}`;
    }
    const endMs = this.clock.now();
    const consecutiveErrors = status === "error" ? (job.state.consecutiveErrors ?? 0) + 1 : 0;
    let nextRunAtMs: number | undefined;
    let disable = false;
    let remove = false;
    if (job.schedule.kind === "at") {
      if (status === "error" && TRANSIENT.test(error ?? "") && consecutiveErrors <= ONE_SHOT_RETRIES)
        nextRunAtMs = endMs + backoffMs(consecutiveErrors);
      else if (status === "ok" && job.deleteAfterRun) remove = true;
      else disable = true;
    } else if (status === "ok" && job.deleteAfterRun) remove = true;
    else {
      nextRunAtMs = this.safeNext(job, Math.max(endMs, runAtMs));
      if (status === "error" && nextRunAtMs !== undefined)
        nextRunAtMs = Math.max(nextRunAtMs, endMs + backoffMs(consecutiveErrors));
      if (nextRunAtMs === undefined) disable = true;
    }
    const summary = result.summary !== undefined ? result.summary.slice(0, SUMMARY_MAX) : undefined;
    const entry: CronRunLogEntry = {
      ts: endMs,
      jobId: job.id,
      action: "finished",
      status,
      ...(error ? { error } : {}),
      ...(summary !== undefined ? { summary } : {}),
      delivered: delivery.delivered,
      deliveryStatus: delivery.deliveryStatus,
      ...(delivery.deliveryError ? { deliveryError: delivery.deliveryError } : {}),
      ...(result.sessionKey ? { sessionKey: result.sessionKey } : {}),
      runAtMs,
      durationMs: endMs - runAtMs,
      ...(nextRunAtMs !== undefined ? { nextRunAtMs } : {}),
      ...(result.model ? { model: result.model } : {}),
    };
    // the run log line is the durable record of the finish: a store may write the job's new
    // state lazily, and a restart restores it from this line (see recover)
    if (!remove) await this.store.appendRun(entry);
    await this.store.release(
      job.id,
      this.owner,
      {
        nextRunAtMs,
        lastRunAtMs: runAtMs,
        lastRunStatus: status,
        lastError: error,
        lastDurationMs: endMs - runAtMs,
        consecutiveErrors,
        lastDeliveryStatus: delivery.deliveryStatus,
      },
      { remove, disable },
    );
    return {
      ok: true,
      ran: true,
      status,
      ...(error ? { error } : {}),
      ...(summary !== undefined ? { summary } : {}),
    };
  }

  // ---- the tool's actions ----

  async status(): Promise<{
    enabled: boolean;
    storePath: string;
    jobs: number;
    running: number;
    nextWakeAtMs: number | null;
  }> {
    const jobs = await this.store.list();
    const next = await this.store.nextWakeAtMs(this.clock.now());
    return {
      enabled: this.schedulerEnabled,
      storePath: this.store.location,
      jobs: jobs.length,
      running: this.running.size,
      nextWakeAtMs: next ?? null,
    };
  }

  async list(options: { includeDisabled?: boolean; offset?: number; limit?: number } = {}) {
    const all = (await this.store.list()).filter((job) => options.includeDisabled || job.enabled);
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? 100)));
    const jobs = all.slice(offset, offset + limit);
    const hasMore = offset + jobs.length < all.length;
    return {
      jobs,
      total: all.length,
      offset,
      limit,
      hasMore,
      nextOffset: hasMore ? offset + jobs.length : null,
    };
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
    await this.track(this.arm());
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
    await this.track(this.arm());
    return next;
  }

  async remove(id: string): Promise<{ ok: true; removed: boolean }> {
    const removed = await this.store.remove(id);
    await this.track(this.arm());
    return { ok: true, removed };
  }

  /** `force` runs now whatever the schedule; `due` only when the job is due. Waits up to `waitMs` for the outcome. */
  async run(id: string, mode: "due" | "force" = "force", waitMs = 60_000): Promise<RunReply> {
    const job = await this.get(id);
    if (this.running.has(id)) return { ok: true, ran: false, reason: "already-running" };
    const now = this.clock.now();
    if (
      mode === "due" &&
      (!job.enabled || job.state.nextRunAtMs === undefined || job.state.nextRunAtMs > now)
    )
      return { ok: true, ran: false, reason: "not-due" };
    const claimed = await this.store.claim(id, now, this.owner, this.leaseMs);
    if (!claimed) return { ok: true, ran: false, reason: "already-running" };
    const { runId, done } = this.launch(claimed);
    let timer: unknown;
    const waited = await Promise.race([
      done,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), waitMs);
      }),
    ]);
    clearTimeout(timer as ReturnType<typeof setTimeout>);
    return waited ?? { ok: true, enqueued: true, runId };
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
