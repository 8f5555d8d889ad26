import type { LeaderLease, LeaseHolder } from "@clawtools/core/contracts";
import { type Db, finite } from "./db.js";
import type { StoreEvents } from "./events.js";

/**
 * A named lease in a table, bound to its holder's liveness connection (see member.ts) and timed
 * by the database's clock (one clock for every machine, so skew between hosts cannot make two
 * leaders). The lease passes to another as soon as its holder's connection drops (a killed
 * process), or when its ttl ends without a renewal (a stuck one). The row keeps the holder's
 * epoch, the fencing token: a renewal under an epoch that is no longer live fails.
 * A release is announced over LISTEN/NOTIFY (`onChange`), so a follower takes over at once.
 */
export class PgLeaderLease implements LeaderLease {
  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = finite("ttlMs", ttlMs);
    const rows = await this.db.query(
      `INSERT INTO ${this.db.t("leases")} AS l (name, owner, expires_at, epoch)
       SELECT $1, $2, clock_timestamp() + $3::double precision * interval '1 millisecond', $4::integer
       WHERE ${this.db.selfLive("$4")}
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at, epoch = excluded.epoch
       WHERE (l.owner = excluded.owner AND l.epoch IS NOT DISTINCT FROM excluded.epoch)
          OR l.expires_at <= clock_timestamp()
          OR (l.epoch IS NOT NULL AND l.epoch NOT IN ${this.db.live})
       RETURNING owner`,
      [name, owner, ttl, this.db.epoch],
    );
    return rows.length > 0;
  }

  async renew(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.db.t("leases")} SET expires_at = clock_timestamp() + $3::double precision * interval '1 millisecond'
       WHERE name = $1 AND owner = $2 AND epoch = $4::integer AND ${this.db.selfLive("$4")} RETURNING owner`,
      [name, owner, finite("ttlMs", ttlMs), this.db.epoch],
    );
    return rows.length > 0;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.db.tx(async (client) => {
      const { rowCount } = await client.query(
        `DELETE FROM ${this.db.t("leases")} WHERE name = $1 AND owner = $2 AND epoch IS NOT DISTINCT FROM $3::integer`,
        [name, owner, this.db.epoch],
      );
      if (rowCount) await this.db.notify(client, "lease", name);
    });
  }

  /** Who holds the lease now (a holder whose connection dropped, or whose ttl ended, holds nothing). */
  async holder(name: string): Promise<LeaseHolder | undefined> {
    const [row] = await this.db.query<{ owner: string; epoch: number | null; until: string }>(
      `SELECT owner, epoch, (extract(epoch FROM expires_at) * 1000)::bigint AS until FROM ${this.db.t("leases")}
       WHERE name = $1 AND expires_at > clock_timestamp() AND (epoch IS NULL OR epoch IN ${this.db.live})`,
      [name],
    );
    if (!row) return undefined;
    return {
      owner: row.owner,
      expiresAtMs: Number(row.until),
      ...(row.epoch !== null ? { epoch: row.epoch } : {}),
    };
  }

  /**
   * Calls `listener` with the lease's name when a holder releases it (or `"*"` when the
   * listening connection was re-opened); resolves to the unsubscribe once listening.
   */
  onChange(listener: (name: string) => void): Promise<() => void> {
    return this.events.subscribe(this.db.schema, "lease", (name) => listener(name));
  }
}
