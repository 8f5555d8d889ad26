import type { Clock, CronStore } from "./interfaces.js";

/**
 * How far apart the schedulers on a shared store wake at one due time: long enough for the first
 * one's claim and its notice to reach the others on a loaded machine, short enough that a turn
 * whose scheduler is gone (or busy) costs little lateness.
 */
export const TURN_MS = 20;
/** How often the live processes are read again (a killed or started one changes the turns). */
export const TURNS_REFRESH_MS = 1_000;

/** A due time's first waker among `count`: a mix of its bits, so due times a fixed step apart spread. */
export function firstTurn(dueMs: number, count: number): number {
  let h = Math.imul((Math.floor(dueMs) | 0) ^ Math.floor(dueMs / 2 ** 32), 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (h >>> 0) % count;
}

/**
 * The schedulers on a store with shared claims take turns to wake at each due time: the one
 * whose turn it is wakes at the due time, the next TURN_MS later, and so on round the live
 * processes, and a claim's notice (`onClaim`) moves the waiting ones past what it took. So one
 * claim is sent per due time where every scheduler used to send one and all but one found
 * nothing; the first turns rotate with the due time, so firing stays spread over the processes.
 * Who is live is read from the store once per refresh interval; an order that is stale for that
 * long (a process killed or started) only makes two wake together or a turn go unused. Taking
 * turns, a scheduler claims only its free run slots: the rest is announced as still due and the
 * others claim it at once (a batch queued behind one process's slots made fires seconds late).
 */
export class WakeTurns {
  private count = 1;
  private rank = 0;
  private nextReadAtMs = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  /** Whether turns are taken: shared claims, claim notices, a list of the live processes, no cluster-wide cap. */
  readonly active: boolean;

  constructor(
    private readonly store: CronStore,
    private readonly clock: Clock,
    capped: boolean,
  ) {
    // a capped claim sends no notice: the later turns would only come later, not save a claim
    this.active = store.sharedClaims === true && !!store.claimers && !!store.onClaim && !capped;
  }

  /** When this scheduler wakes for a job due at `dueMs`. */
  wakeAt(dueMs: number): number {
    if (this.count <= 1) return dueMs;
    const turn = (this.rank - firstTurn(dueMs, this.count) + this.count) % this.count;
    return dueMs + turn * TURN_MS;
  }

  /** Reads who is live when the last read is older than the refresh interval; a failed read keeps the old order. */
  refresh(): Promise<void> | undefined {
    if (!this.active || this.reading || this.clock.now() < this.nextReadAtMs) return undefined;
    this.nextReadAtMs = this.clock.now() + TURNS_REFRESH_MS;
    this.reading = (async () => {
      try {
        const claimers = await this.store.claimers?.();
        if (claimers) {
          this.count = Math.max(1, claimers.count);
          this.rank = Math.min(Math.max(0, claimers.rank), this.count - 1);
        }
      } catch {
        // the next refresh tries again; meanwhile the old order stands
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
