import type { LeaderLease } from "@clawtools/core/contracts";
import { type Db, finite } from "./db.js";

/**
 * A named lease in a table, timed by the database's clock (one clock for every machine, so
 * skew between hosts cannot make two leaders). A holder that stops renewing loses the lease
 * when its ttl ends; anyone may take it then.
 */
export class PgLeaderLease implements LeaderLease {
  constructor(private readonly db: Db) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO ${this.db.t("leases")} AS l (name, owner, expires_at)
       VALUES ($1, $2, clock_timestamp() + $3::double precision * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE l.owner = excluded.owner OR l.expires_at <= clock_timestamp()
       RETURNING owner`,
      [name, owner, finite("ttlMs", ttlMs)],
    );
    return rows.length > 0;
  }

  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.db.t("leases")} SET expires_at = clock_timestamp() + $3::double precision * interval '1 millisecond'
       WHERE name = $1 AND owner = $2 RETURNING owner`,
      [name, owner, finite("ttlMs", ttlMs)],
    );
    return rows.length > 0;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.db.t("leases")} WHERE name = $1 AND owner = $2`, [name, owner]);
  }
}
