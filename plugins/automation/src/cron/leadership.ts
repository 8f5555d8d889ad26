import type { Clock, LeaderLease } from "./interfaces.js";

/** What this process is to the cluster's scheduling (`cron status`). */
export type SchedulerRole = "leader" | "follower" | "sole";

/**
 * This scheduler's hold on the cluster's leader lease ("cron"): whether it holds it, until when
 * by this clock, and when a follower may next probe it. Without a lease it is the sole scheduler.
 */
export class Leadership {
  /** Until when the lease is ours without renewing it (renewed once a third of it is gone). */
  private untilMs = Number.NEGATIVE_INFINITY;
  /** When a follower that fires on its own (shared claims) next tries the lease. */
  private nextProbeAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly o: {
      lease: LeaderLease | undefined;
      clock: Clock;
      owner: string;
      ttlMs: number;
      probeMs: number;
    },
  ) {}

  get role(): SchedulerRole {
    if (!this.o.lease) return "sole";
    return this.untilMs > Number.NEGATIVE_INFINITY ? "leader" : "follower";
  }

  /**
   * Takes or renews the lease. A renewal is a write under the lease's lock: between runs of a
   * burst it is skipped while two thirds of the lease are still ahead (by this clock, which the
   * lease's end is counted on), so the lease is renewed as often as the timer does, not per run.
   */
  async take(how: "acquire" | "renew"): Promise<boolean> {
    const lease = this.o.lease;
    if (!lease) return true;
    const now = this.o.clock.now();
    const ttl = this.o.ttlMs;
    if (how === "renew" && now + (2 * ttl) / 3 < this.untilMs) return true;
    const ok = await lease[how]("cron", this.o.owner, ttl);
    this.untilMs = ok ? now + ttl : Number.NEGATIVE_INFINITY;
    return ok;
  }

  /**
   * For a follower that fires on its own: tries the lease at most once per probe interval (or at
   * once after `probeNow`), so its ticks at due times cost no lease round trip. True when it
   * became the leader now.
   */
  async probe(): Promise<boolean> {
    const now = this.o.clock.now();
    if (now < this.nextProbeAtMs) return false;
    this.nextProbeAtMs = now + this.o.probeMs;
    return this.take("acquire");
  }

  /** The lease was released by its holder: the next `probe` tries it at once. */
  probeNow(): void {
    this.nextProbeAtMs = Number.NEGATIVE_INFINITY;
  }

  async release(): Promise<void> {
    await this.o.lease?.release("cron", this.o.owner);
    this.untilMs = Number.NEGATIVE_INFINITY;
  }
}
