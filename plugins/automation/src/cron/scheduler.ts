import { randomUUID } from "node:crypto";
import { withTimeout } from "@clawtools/core/time";
import { CLAIM_BATCH, ClaimQueue, claimDueJobs } from "./claim-queue.js";
import { Leadership, type SchedulerRole } from "./leadership.js";
import { WakeTimer } from "./wake-timer.js";
import { WakeTurns } from "./wake-turns.js";
import { executeRun } from "./execute-run.js";
import { recoverJobs } from "./recover.js";
import type { CronJob } from "./types.js";

import {
  MAX_TIMER_MS,
  RETRY_AFTER_ERROR_MS,
  type RunEnd,
  STOP_GRACE_MS,
  type SchedulerOptions,
  type SchedulerTimings,
  timingsOf,
} from "./scheduler-options.js";

export * from "./scheduler-options.js";
export type { SchedulerRole } from "./leadership.js";

/**
 * The loop: one timer to the nearest due job (capped at 60 s); due jobs claimed through the
 * store's lease in batches (the free run slots plus CLAIM_BATCH, one store write for the lot),
 * run up to the concurrency limit, the rest waiting in a ClaimQueue; each run's outcome recorded
 * when it finishes, and its freed slot going straight to the next claimed job. Claiming and
 * arming ask the store for the head of its due order, so a burst of n jobs costs n / batch
 * claims, not n scans. With a leader lease, only the leader fires, unless the store has
 * `sharedClaims`: then every scheduler claims due jobs itself (the store keeps each claim to one
 * owner) and the leader only recovers the claims of dead processes; the schedulers then take
 * turns to wake first at each due time (wake-turns.ts), the others moved on by its claim's notice.
 */
export class CronScheduler {
  private readonly timer: WakeTimer;
  private started = false;
  private stopped = false;
  private readonly running = new Map<string, Promise<RunEnd>>();
  private readonly pending = new Set<Promise<unknown>>();
  private ticking: Promise<void> | undefined;
  private tickAgain = false;
  /** Claimed, not started yet. */
  private readonly queue: ClaimQueue;
  private readonly leadership: Leadership;
  /** When the leader next looks for claims whose holder is gone. */
  private nextSweepAtMs = Number.NEGATIVE_INFINITY;
  /** Unsubscribes from the store's and the lease's change notices. */
  private readonly unsubscribe: Array<() => void> = [];
  private rearmQueued = false;
  /** A claim under the cluster-wide cap came back short: what is still due waits for a release. */
  private capWait = false;
  /**
   * Due jobs may wait for a slot (the last claim took all it asked, or every slot was taken when
   * the timer was armed): a run's end claims at once. Otherwise, with change notices (`notified`),
   * the timer already stands at the next due job.
   */
  private saturated = true;
  /** The next due time the last claim brought back (`claimDueWithNext`); null: not known. */
  private nextFromClaim: number | undefined | null = null;
  private notified = false;
  /** Who wakes first at each due time, on a store with shared claims. */
  private readonly turns: WakeTurns;
  /** The renewal, probe or sweep the timer wakes for at the latest (the last `arm`). */
  private capAtMs = Number.POSITIVE_INFINITY;
  /** The lease, claim and probe periods: fixed by the options, read on every `arm`. */
  private readonly periods: SchedulerTimings;

  constructor(private readonly o: SchedulerOptions) {
    const { store, clock, owner, leaseMs } = o;
    const track = <T>(promise: Promise<T>) => this.track(promise);
    this.queue = new ClaimQueue({ store, clock, owner, leaseMs, track, notified: () => this.notified });
    this.timer = new WakeTimer(o.clock, () => void this.tick());
    const capped = o.clusterMaxConcurrentRuns !== undefined;
    this.turns = new WakeTurns(store, clock, capped);
    this.periods = timingsOf(o, store.sharedClaims === true);
    this.leadership = new Leadership({
      lease: o.lease,
      clock: o.clock,
      owner: o.owner,
      ttlMs: this.periods.leaderLeaseMs,
      probeMs: this.periods.probeMs,
    });
  }

  /** Every scheduler fires (a store with shared claims), not only the leader. */
  get sharedClaims(): boolean {
    return this.o.store.sharedClaims === true;
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** Leader (fires due jobs), follower (waits for the lease), or sole (no lease: the only scheduler). */
  get role(): SchedulerRole {
    return this.leadership.role;
  }

  /** The jobs this scheduler holds a claim on: running, or claimed and waiting for a slot. */
  get claims(): { running: string[]; queued: string[] } {
    return { running: [...this.running.keys()], queued: this.queue.ids() };
  }

  get timings(): SchedulerTimings {
    return { ...this.periods };
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Takes a claimed job waiting for a run slot out of the queue: a forced run uses its claim. */
  takeQueued(id: string): boolean {
    return this.queue.take(id);
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => {});
    return promise;
  }

  /** Waits until no tick, re-arm or (unless `runs: false`) run is in progress. */
  async idle(options: { runs?: boolean } = {}): Promise<void> {
    for (;;) {
      const waiting = [...this.pending, ...(options.runs === false ? [] : this.running.values())];
      if (this.ticking) waiting.push(this.ticking);
      if (waiting.length === 0) return;
      await Promise.allSettled(waiting);
    }
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    const lease = this.o.lease;
    await this.listen();
    if (!lease || (await this.leadership.take("acquire"))) await this.track(this.recover());
    await this.turns.refresh();
    await this.track(this.arm());
  }

  /**
   * Follows the store's change notices where it has them: a job added or changed by any process
   * re-arms the leader's timer at once (it fires on time, not at the next capped wake-up), and a
   * released lease makes followers try it at once. Without notices, the timers still poll.
   */
  private async listen(): Promise<void> {
    const { store, lease } = this.o;
    const follow = async (subscribe: Promise<() => void> | undefined) => {
      const off = await subscribe?.catch(() => undefined);
      if (off) this.unsubscribe.push(off);
    };
    await follow(store.onChange?.((id, nextRunAtMs) => this.onJobChange(id, nextRunAtMs)));
    this.notified = this.unsubscribe.length > 0;
    if (this.turns.active) await follow(store.onClaim?.((owner, next) => this.onClaim(owner, next)));
    await follow(lease?.onChange?.(() => this.onLeaseChange()));
  }

  /** Whether this scheduler claims due jobs now: the leader, the sole one, or anyone with shared claims. */
  private get fires(): boolean {
    return this.role !== "follower" || this.sharedClaims;
  }

  private onJobChange(id: string, nextRunAtMs?: number | null): void {
    this.queue.noteChange(id);
    if (this.stopped || !this.started || !this.fires || this.rearmQueued) return;
    // the notice says when the job is due next: nothing to fire, or the timer is already nearer
    // (unless the cap held due jobs back: any change may have freed a slot)
    const later =
      nextRunAtMs === null || (nextRunAtMs !== undefined && (this.timer.atMs ?? Infinity) <= nextRunAtMs);
    if (later && !this.capWait) return;
    this.capWait = false;
    // notices come in bursts (a batch released): one re-arm answers all that arrived meanwhile
    this.rearmQueued = true;
    void this.track(
      Promise.resolve().then(() => {
        this.rearmQueued = false;
        return this.arm();
      }),
    );
  }

  /**
   * Another scheduler's claim took the due time this timer stands at: the timer moves to this
   * one's turn at the next due time it left (a pass, a re-arm or runs waiting set it themselves).
   */
  private onClaim(owner: string, next?: number | null): void {
    if (owner === this.o.owner || next === undefined || this.stopped || !this.started || !this.fires) return;
    if (this.ticking || this.rearmQueued || this.saturated || this.capWait || this.queue.size > 0) return;
    const due = this.timer.dueMs;
    if (due === undefined || (next !== null && next <= due)) return;
    const wake = next === null ? this.capAtMs : this.turns.wakeAt(next);
    if (wake < this.capAtMs) this.timer.move(wake, next ?? undefined);
    else this.timer.move(this.capAtMs);
  }

  private onLeaseChange(): void {
    if (this.stopped || !this.started || this.role !== "follower") return;
    this.leadership.probeNow();
    void this.track(this.tick());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.started = false;
    this.timer.clear();
    for (const off of this.unsubscribe.splice(0)) off();
    if (this.ticking) await this.ticking.catch(() => {});
    // jobs claimed but not started are given back for another scheduler (or the next start)
    await this.queue.releaseAll();
    // runs in flight have begun their work: they end and are recorded here (up to the grace),
    // not left as a claim that another scheduler would run a second time
    const runs = Promise.allSettled([...this.running.values()]);
    await withTimeout(runs, this.o.stopGraceMs ?? STOP_GRACE_MS, { onTimeout: () => [] });
    // finished runs still being recorded complete before the store's last write
    await Promise.allSettled([...this.pending]);
    await this.o.store.flush?.();
    await this.leadership.release();
  }

  private recover(jobs?: CronJob[]): Promise<void> {
    const { store, clock, catchUp, owner, leaseMs } = this.o;
    return recoverJobs(store, clock, catchUp, { owner, leaseMs }, jobs);
  }

  /**
   * Recovers the claims whose holder is gone (a killed process's connection dropped), at most
   * once per probe interval, so no job stays marked running for a dead process.
   */
  private async sweep(): Promise<void> {
    const { store, clock } = this.o;
    if (!store.orphans) return;
    const now = clock.now();
    if (now < this.nextSweepAtMs) return;
    this.nextSweepAtMs = now + this.periods.probeMs;
    const orphans = (await store.orphans(now)).filter((job) => !this.running.has(job.id));
    if (orphans.length > 0) await this.recover(orphans);
  }

  /** Sets the one timer to the nearest due job (or 60 s from now); a nearer timer already set stays. */
  async arm(known: number | undefined | null = null): Promise<void> {
    if (this.stopped || !this.started || !this.o.timer) return;
    const clock = this.o.clock;
    const now = clock.now();
    // a follower sleeps until its next probe of the lease (or a notice that it was released):
    // what is due is the leader's business, so it never wakes at a job's time (unless it fires too)
    if (!this.fires) {
      this.timer.set(now + Math.min(this.periods.probeMs, Math.ceil(this.periods.leaderLeaseMs / 3)));
      return;
    }
    // with a leader lease, the timer also wakes to renew it (or, firing as a follower, to probe
    // it); with orphans to sweep, to sweep them
    let nearest =
      now +
      (this.o.lease
        ? Math.min(
            MAX_TIMER_MS,
            Math.ceil(this.periods.leaderLeaseMs / 3),
            this.o.store.orphans ? this.periods.probeMs : MAX_TIMER_MS,
          )
        : MAX_TIMER_MS);
    const cap = nearest;
    let due: number | undefined;
    if (this.running.size >= this.o.maxConcurrentRuns) this.saturated = true;
    else {
      const next = known !== null ? known : await this.o.store.nextWakeAtMs(now);
      // jobs the cluster-wide cap held back wait for a change notice (or the next probe), not spin
      const wake = next === undefined ? nearest : this.turns.wakeAt(next);
      if (wake < nearest && !(this.capWait && (next as number) <= now)) [nearest, due] = [wake, next];
    }
    if (this.stopped || !this.started) return;
    this.capAtMs = cap;
    this.timer.set(nearest, due);
  }

  /** Claims what is due and starts it; then re-arms. Ticks asked for while one runs share one more pass. */
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
    return this.ticking.then(
      () => {
        const known = this.nextFromClaim;
        this.nextFromClaim = null;
        return this.track(this.arm(known)).catch((error: unknown) => this.failed(error));
      },
      (error: unknown) => this.failed(error),
    );
  }

  /** A pass failed on the store (a dropped connection): reported, tried again (its timer is spent). */
  private failed(error: unknown): void {
    this.o.onError?.(error);
    if (this.stopped || !this.started || !this.o.timer) return;
    this.timer.set(this.o.clock.now() + RETRY_AFTER_ERROR_MS);
  }

  private async claimAndLaunch(): Promise<void> {
    this.nextFromClaim = null;
    if (this.stopped || !this.started) return;
    const { lease, owner, leaseMs } = this.o;
    const reading = this.turns.refresh();
    if (reading) void this.track(reading);
    if (lease && this.sharedClaims) {
      // every scheduler fires; the leader sweeps the claims of dead processes. A follower tries
      // the lease once per probe interval, and a new leader sweeps at once: the others were
      // firing all along, so only the dead one's claims are left to recover
      if (
        !(this.role === "leader" && (await this.leadership.take("renew"))) &&
        (await this.leadership.probe())
      )
        this.nextSweepAtMs = Number.NEGATIVE_INFINITY;
    } else if (lease && !(this.role === "leader" && (await this.leadership.take("renew")))) {
      // a follower goes straight to taking the lease (one round trip per probe)
      // no longer the leader: what this one claimed and has not started is the new leader's
      await this.queue.releaseAll();
      // a new leader first recovers what the last one left (interrupted and missed runs)
      if (!(await this.leadership.take("acquire"))) return;
      this.nextSweepAtMs = this.o.clock.now() + this.periods.probeMs;
      await this.recover();
    }
    if (this.role !== "follower") await this.sweep();
    // claimed jobs waiting for a slot go first, each checked against the store as it stands now
    while (this.running.size < this.o.maxConcurrentRuns && this.queue.size > 0) {
      const job = await this.queue.next();
      if (!job) break;
      if (this.stopped) {
        this.queue.add([job], job.state.runningAtMs as number);
        return;
      }
      this.launch(job);
    }
    const capacity = this.o.maxConcurrentRuns - this.running.size;
    if (capacity <= 0 || this.queue.size > 0) {
      this.saturated = true;
      return;
    }
    const now = this.o.clock.now();
    // under a cluster-wide cap, or taking turns (the others hear what is left and claim it at
    // once), claims waiting in a queue would hold jobs other processes could run now: only the
    // free slots are claimed
    const clusterMax = this.sharedClaims ? this.o.clusterMaxConcurrentRuns : undefined;
    const asked = clusterMax === undefined && !this.turns.active ? capacity + CLAIM_BATCH : capacity;
    // a change notice that comes while the claim is on its way may be about a job it brings back
    const { jobs: claimed, nextWakeAtMs } = await this.queue.claiming(() =>
      claimDueJobs(this.o.store, now, owner, leaseMs, asked, clusterMax),
    );
    this.nextFromClaim = nextWakeAtMs;
    this.capWait = clusterMax !== undefined && claimed.length < capacity;
    this.saturated = claimed.length >= asked || this.capWait;
    // stopped while the claim was on its way: nothing starts, every job goes back at once
    const start = this.stopped
      ? []
      : claimed.slice(0, Math.max(0, this.o.maxConcurrentRuns - this.running.size));
    for (const job of start) this.launch(job);
    this.queue.add(claimed.slice(start.length), now);
    if (this.stopped) await this.queue.releaseAll();
  }

  /** Starts a claimed job; `done` settles when its outcome is recorded. */
  launch(job: CronJob): { runId: string; done: Promise<RunEnd> } {
    const runId = randomUUID();
    const done = this.execute(job, runId).finally(() => {
      this.running.delete(job.id);
      // a freed slot goes straight to the next due job, when one may be waiting for it
      if (!this.stopped && (this.saturated || this.queue.size > 0 || !this.notified))
        void this.track(this.tick());
    });
    this.running.set(job.id, done);
    return { runId, done };
  }

  private execute(job: CronJob, runId: string): Promise<RunEnd> {
    return executeRun(this.o, job, runId, {
      track: (promise) => this.track(promise),
      // the timer may have to come forward to the job's next time
      recorded: (next) => {
        if (next !== undefined && this.started && !this.stopped && this.o.timer && this.fires)
          this.timer.set(this.turns.wakeAt(next), next);
      },
    });
  }
}
