/**
 * One scheduler leader per cluster: `pg_try_advisory_lock` on a dedicated connection, or Redis
 * `SET cron:leader <owner> NX PX ttl` renewed before it expires.
 */
export interface LeaderLease {
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  renew(name: string, owner: string, ttlMs: number): Promise<boolean>;
  release(name: string, owner: string): Promise<void>;
}
