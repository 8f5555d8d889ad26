/**
 * One scheduler leader per cluster: a row bound to its holder's connection (PostgreSQL), a lock
 * file, or Redis `SET cron:leader <owner> NX PX ttl` renewed before it expires.
 */
export interface LeaderLease {
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  renew(name: string, owner: string, ttlMs: number): Promise<boolean>;
  release(name: string, owner: string): Promise<void>;
  /** Who holds the lease now (`cron status` shows it); optional. */
  holder?(name: string): Promise<LeaseHolder | undefined>;
  /**
   * Calls `listener` with the lease's name when its holder lets it go (or `"*"` when changes may
   * have been missed), so a follower tries to take it at once; resolves to the unsubscribe.
   * Optional: without it followers find out at their next probe.
   */
  onChange?(listener: (name: string) => void): Promise<() => void>;
}

/** The holder of a lease as the backend sees it. */
export interface LeaseHolder {
  owner: string;
  /** When it ends unless renewed (ms since the epoch, by the backend's clock). */
  expiresAtMs: number;
  /** The holder's fencing token, where the backend has one (PostgreSQL: its member epoch). */
  epoch?: number;
}
