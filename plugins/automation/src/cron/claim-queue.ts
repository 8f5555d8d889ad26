import type { Clock, CronStore } from "./interfaces.js";
import type { CronJob } from "./types.js";

/**
 * Due jobs claimed in one store call beyond the free run slots. A claim is a write under the
 * store's cross-process lock (a journal line, or an UPDATE); claiming a burst's jobs in batches
 * pays that once per batch instead of once per job.
 */
export const CLAIM_BATCH = 32;
/**
 * When no waiting job has started for this long (the slots are held by slow runs), the waiting
 * claims are given back, so another scheduler, or a forced run from another process, may take
 * the jobs. A queue that moves, however slowly (a loaded machine), keeps its claims.
 */
export const CLAIM_HOLD_MS = 1_000;
/**
 * On a store many schedulers claim from, a claim also takes the jobs due within this long, and
 * its scheduler starts each at its time: the others sleep past them rather than every scheduler
 * waking at every due time to find the job taken (a claim statement per process per fire).
 */
export const CLAIM_AHEAD_MS = 300;

/** A store whose `claimDueWithNext` also takes the jobs due within `aheadMs` (the PostgreSQL store). */
interface ClaimsAhead {
  claimsAhead: true;
  claimDueWithNext(
    nowMs: number,
    owner: string,
    leaseMs: number,
    max: number,
    aheadMs: number,
  ): Promise<{ jobs: CronJob[]; nextWakeAtMs: number | undefined }>;
}

export function claimsAhead(store: CronStore): store is CronStore & ClaimsAhead {
  return (store as Partial<ClaimsAhead>).claimsAhead === true;
}

interface Held {
  job: CronJob;
  /** The `nowMs` of the claim: the store marked the job running at this time. */
  claimedAtMs: number;
  /** When it is due (a claim made ahead holds it until then). */
  dueAtMs: number;
}

export interface ClaimQueueOptions {
  store: CronStore;
  clock: Clock;
  owner: string;
  leaseMs: number;
  /** Keeps a background promise visible to the scheduler's `idle()` and `stop()`. */
  track: <T>(promise: Promise<T>) => Promise<T>;
  /** The store's change notices reach the scheduler (`noteChange`): an unchanged claim is not read again. */
  notified: () => boolean;
}

/**
 * Jobs this scheduler claimed but has not started yet, first claimed first. Each waits under the
 * claim the batch took, for a run slot, and a job claimed ahead for its due time; when its turn
 * comes it runs only if a claim made at that moment would have taken it (still there, enabled,
 * due, and still under this claim): looked up again, unless the store's change notices said
 * nothing of it since the claim (the notices reach this scheduler).
 * Otherwise the claim is given back unchanged, as it is when the scheduler stops, loses its
 * leadership, or no waiting job has started for CLAIM_HOLD_MS.
 */
export class ClaimQueue {
  private readonly held: Held[] = [];
  private timer: unknown;
  /** When the queue last moved: claims added, or a waiting job taken to run. */
  private movedAtMs = 0;
  /** Held jobs a change notice named since their claim (or all, after the notices were cut). */
  private readonly changed = new Set<string>();
  private allChanged = false;
  /**
   * When the store has an unclaimed job due next, as far as this scheduler knows (the last
   * claim's answer, lowered by change notices); -Infinity: not known.
   */
  private unclaimedAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: ClaimQueueOptions) {}

  get size(): number {
    return this.held.length;
  }

  /** The ids of the jobs waiting, first claimed first. */
  ids(): string[] {
    return this.held.map((held) => held.job.id);
  }

  /** Whether a held job is due by `nowMs` (one waits for a slot). */
  hasDue(nowMs: number): boolean {
    return this.held.some((held) => held.dueAtMs <= nowMs);
  }

  /** When the first held job is due; undefined when none is held. */
  nextDueAtMs(): number | undefined {
    let first: number | undefined;
    for (const held of this.held) if (first === undefined || held.dueAtMs < first) first = held.dueAtMs;
    return first;
  }

  /**
   * A change notice for `id` ("*": the notices were cut, anything may have changed), with the
   * job's next due time (null: none, or claimed).
   */
  noteChange(id: string, nextRunAtMs?: number | null): void {
    // a job released or added unclaimed: the next claim may find it due
    if (nextRunAtMs !== null)
      this.unclaimedAtMs = Math.min(this.unclaimedAtMs, nextRunAtMs ?? Number.NEGATIVE_INFINITY);
    if (this.held.length === 0) return;
    if (id === "*") this.allChanged = true;
    else if (this.held.some((held) => held.job.id === id)) this.changed.add(id);
  }

  /** A claim's answer: the next due time of what it left (undefined: none; null: not known). */
  noteClaim(nextWakeAtMs: number | undefined | null): void {
    if (nextWakeAtMs !== null) this.unclaimedAtMs = nextWakeAtMs ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Holding jobs claimed ahead, with no unclaimed job due by `nowMs`: when one is due next
   * (undefined: none known), for the timer; null when a claim is to be made now.
   */
  unclaimedAfter(nowMs: number): number | undefined | null {
    if (this.held.length === 0 || this.unclaimedAtMs <= nowMs) return null;
    return this.unclaimedAtMs === Number.POSITIVE_INFINITY ? undefined : this.unclaimedAtMs;
  }

  add(jobs: CronJob[], claimedAtMs: number): void {
    for (const job of jobs)
      this.held.push({
        job,
        claimedAtMs,
        dueAtMs: Math.max(claimedAtMs, job.state.nextRunAtMs ?? claimedAtMs),
      });
    this.movedAtMs = this.o.clock.now();
    this.armHold();
  }

  /** Takes the waiting claim of `id` out of the queue (a forced run of it uses the claim). */
  take(id: string): boolean {
    const i = this.held.findIndex((held) => held.job.id === id);
    if (i < 0) return false;
    this.held.splice(i, 1);
    this.emptied();
    return true;
  }

  /** The next waiting job due by `nowMs` that may run now, as the store has it; claims that may not are given back. */
  async next(nowMs: number): Promise<CronJob | undefined> {
    for (;;) {
      const i = this.held.findIndex((held) => held.dueAtMs <= nowMs);
      if (i < 0) return undefined;
      const [held] = this.held.splice(i, 1) as [Held];
      // no notice named it since the claim: the job is as the claim read it
      const unchanged = this.o.notified() && !this.allChanged && !this.changed.has(held.job.id);
      this.changed.delete(held.job.id);
      this.emptied();
      const job = await this.confirm(held, unchanged);
      if (job) {
        this.movedAtMs = this.o.clock.now();
        return job;
      }
    }
  }

  /** Gives every waiting claim back (the scheduler stops or is no longer the leader). */
  async releaseAll(): Promise<void> {
    const all = this.held.splice(0);
    this.emptied();
    // released together: the store commits changes queued during one write in the next one
    await Promise.all(all.map((held) => this.giveBack(held.job.id)));
  }

  private async confirm(held: Held, unchanged: boolean): Promise<CronJob | undefined> {
    const { clock, leaseMs, store } = this.o;
    const id = held.job.id;
    const now = clock.now();
    // past half its lease the claim could end during the run: give it back rather than run on it
    if (now - held.claimedAtMs >= leaseMs / 2) {
      await this.giveBack(id);
      return undefined;
    }
    const job = unchanged ? held.job : await store.get(id);
    // removed while waiting: the claim went with the job
    if (!job) return undefined;
    // A claim made now would take the job only if it is enabled and due; an edit that replaced
    // the job's state (or a remove and re-add under the same id) no longer carries this claim.
    const due = job.enabled && job.state.nextRunAtMs !== undefined && job.state.nextRunAtMs <= now;
    if (!due || job.state.runningAtMs !== held.claimedAtMs) {
      await this.giveBack(id);
      return undefined;
    }
    return job;
  }

  /** Ends this owner's claim without running the job; its state stays as it was (still due if it was). */
  private async giveBack(id: string): Promise<void> {
    try {
      await this.o.store.release(id, this.o.owner, {});
    } catch {
      // the claim ends with its lease anyway; recovery treats it as a run that never finished
    }
  }

  private armHold(): void {
    if (this.timer !== undefined || this.held.length === 0) return;
    const clock = this.o.clock;
    this.timer = clock.setTimeout(
      () => {
        this.timer = undefined;
        if (clock.now() - this.movedAtMs >= CLAIM_HOLD_MS) {
          const stale = this.held.splice(0);
          this.emptied();
          void this.o.track(Promise.all(stale.map((held) => this.giveBack(held.job.id))));
        }
        this.armHold();
      },
      Math.max(0, this.movedAtMs + CLAIM_HOLD_MS - clock.now()),
    );
  }

  /** With nothing held, the hold timer and the notes of changes go. */
  private emptied(): void {
    if (this.held.length > 0) return;
    this.disarmHold();
    this.changed.clear();
    this.allChanged = false;
  }

  private disarmHold(): void {
    if (this.timer !== undefined) this.o.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * One claim of due jobs: under the cluster-wide cap when given; else, from a store that can, with
 * the next due time of what it left (the timer is armed from it, no second round trip). The time
 * is null when the store did not say.
 */
export async function claimDueJobs(
  claimer: { store: CronStore; owner: string; leaseMs: number },
  nowMs: number,
  max: number,
  limits: { clusterMax?: number | undefined; aheadMs?: number },
): Promise<{ jobs: CronJob[]; nextWakeAtMs: number | undefined | null }> {
  const { store, owner, leaseMs } = claimer;
  const { clusterMax, aheadMs = 0 } = limits;
  if (clusterMax !== undefined)
    return { jobs: await store.claimDue(nowMs, owner, leaseMs, max, { clusterMax }), nextWakeAtMs: null };
  if (aheadMs > 0 && claimsAhead(store)) return store.claimDueWithNext(nowMs, owner, leaseMs, max, aheadMs);
  if (store.claimDueWithNext) return store.claimDueWithNext(nowMs, owner, leaseMs, max);
  return { jobs: await store.claimDue(nowMs, owner, leaseMs, max), nextWakeAtMs: null };
}
