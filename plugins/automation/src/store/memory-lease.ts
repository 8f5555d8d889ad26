import type { Clock, LeaderLease } from "../cron/interfaces.js";
import { systemClock } from "../cron/interfaces.js";

/** A leader lease inside one process (the embedded default; PostgreSQL or Redis for a cluster). */
export class InProcessLeaderLease implements LeaderLease {
  private readonly held = new Map<string, { owner: string; until: number }>();
  constructor(private readonly clock: Clock = systemClock) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const current = this.held.get(name);
    if (current && current.owner !== owner && current.until > now) return false;
    this.held.set(name, { owner, until: now + ttlMs });
    return true;
  }

  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const current = this.held.get(name);
    if (!current || current.owner !== owner) return false;
    current.until = this.clock.now() + ttlMs;
    return true;
  }

  async release(name: string, owner: string): Promise<void> {
    if (this.held.get(name)?.owner === owner) this.held.delete(name);
  }
}
