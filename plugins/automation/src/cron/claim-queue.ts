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

interface Held {
  job: CronJob;
  /** The `nowMs` of the claim: the store marked the job running at this time. */
  claimedAtMs: number;
}

export interface ClaimQueueOptions {
  store: CronStore;
  clock: Clock;
  owner: string;
  leaseMs: number;
  /** Keeps a background promise visible to the scheduler's `idle()` and `stop()`. */
  track: <T>(promise: Promise<T>) => Promise<T>;
  /** The store's change notices reach the scheduler (`noteChange`): a claim no notice named is not read again. */
  notified: () => boolean;
}

/**
 * Jobs this scheduler claimed but has not started yet, first claimed first. Each waits under the
 * claim the batch took; when its turn comes it runs only if a claim made at that moment would
 * have taken it (still there, enabled, due, and still under this claim): looked up again, unless
 * the store's change notices reach this scheduler and none named the job since its claim was
 * sent (the claim's text is then the job as it stands: a statement a fire saved).
 * Otherwise the claim is given back unchanged, as it is when the scheduler stops, loses its
 * leadership, or no waiting job has started for CLAIM_HOLD_MS.
 */
export class ClaimQueue {
  private readonly held: Held[] = [];
  private timer: unknown;
  /** When the queue last moved: claims added, or a waiting job taken to run. */
  private movedAtMs = 0;
  /** Jobs a change notice named since their claim was sent (or all, after the notices were cut). */
  private readonly changed = new Set<string>();
  private allChanged = false;
  /** Claims on their way: a notice that comes meanwhile may be about a job one brings back. */
  private inFlight = 0;

  constructor(private readonly o: ClaimQueueOptions) {}

  get size(): number {
    return this.held.length;
  }

  /** The ids of the jobs waiting, first claimed first. */
  ids(): string[] {
    return this.held.map((held) => held.job.id);
  }

  /** Runs a claim of this scheduler, noting the change notices that come while it is on its way. */
  async claiming<T>(claim: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await claim();
    } finally {
      this.inFlight--;
    }
  }

  /** A change notice for `id` ("*": the notices were cut, anything may have changed). */
  noteChange(id: string): void {
    if (this.held.length === 0 && this.inFlight === 0) return;
    if (id === "*") this.allChanged = true;
    else if (this.inFlight > 0 || this.held.some((held) => held.job.id === id)) this.changed.add(id);
  }

  add(jobs: CronJob[], claimedAtMs: number): void {
    for (const job of jobs) this.held.push({ job, claimedAtMs });
    // the notes kept while a claim was on its way: those of jobs not held are done with
    if (this.inFlight === 0)
      for (const id of this.changed)
        if (!this.held.some((held) => held.job.id === id)) this.changed.delete(id);
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

  /** The next waiting job that may run now, as the store has it; claims that may not are given back. */
  async next(): Promise<CronJob | undefined> {
    for (let held = this.held.shift(); held; held = this.held.shift()) {
      // no notice named it since its claim was sent: the job is as the claim read it
      const unchanged = this.o.notified() && !this.allChanged && !this.changed.has(held.job.id);
      this.changed.delete(held.job.id);
      this.emptied();
      const job = await this.confirm(held, unchanged);
      if (job) {
        this.movedAtMs = this.o.clock.now();
        return job;
      }
    }
    return undefined;
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

  /** With nothing held (and no claim on its way), the hold timer and the notes of changes go. */
  private emptied(): void {
    if (this.held.length > 0) return;
    this.disarmHold();
    if (this.inFlight > 0) return;
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
  store: CronStore,
  nowMs: number,
  owner: string,
  leaseMs: number,
  max: number,
  clusterMax: number | undefined,
): Promise<{ jobs: CronJob[]; nextWakeAtMs: number | undefined | null }> {
  if (clusterMax !== undefined)
    return { jobs: await store.claimDue(nowMs, owner, leaseMs, max, { clusterMax }), nextWakeAtMs: null };
  if (store.claimDueWithNext) return store.claimDueWithNext(nowMs, owner, leaseMs, max);
  return { jobs: await store.claimDue(nowMs, owner, leaseMs, max), nextWakeAtMs: null };
}
