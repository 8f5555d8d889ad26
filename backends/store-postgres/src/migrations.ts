import type { PoolClient } from "pg";

/**
 * The schema, as ordered steps. A step is never edited once released: a change is a new step,
 * so a database that ran the old ones is brought forward and never re-run.
 * Ids compare byte-wise (`COLLATE "C"`) so ordering matches the embedded stores on every locale.
 * Job and run JSON are `text`, not `jsonb`: jsonb reorders keys, and a job must read back as stored.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: "sessions, transcripts, runs, cron jobs, run logs, leases",
    sql: `
CREATE TABLE sessions (
  key text COLLATE "C" PRIMARY KEY,
  session_id text COLLATE "C" NOT NULL UNIQUE,
  agent_id text COLLATE "C" NOT NULL,
  label text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  entry text NOT NULL
);
CREATE INDEX sessions_agent_label ON sessions (agent_id, label);
CREATE INDEX sessions_updated ON sessions (updated_at DESC);
CREATE TABLE transcript (
  session_key text COLLATE "C" NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
  seq bigserial,
  message text NOT NULL,
  PRIMARY KEY (session_key, seq)
);
CREATE TABLE append_keys (
  session_key text COLLATE "C" NOT NULL REFERENCES sessions (key) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  PRIMARY KEY (session_key, idempotency_key)
);
CREATE TABLE runs (
  run_id text COLLATE "C" PRIMARY KEY,
  requester text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  status text NOT NULL,
  record text NOT NULL
);
CREATE INDEX runs_requester ON runs (requester, created_at);
CREATE INDEX runs_status ON runs (status);
CREATE TABLE cron_jobs (
  id text COLLATE "C" PRIMARY KEY,
  job text NOT NULL,
  enabled boolean NOT NULL,
  next_run_at bigint,
  running_at bigint,
  lease_owner text,
  lease_until bigint
);
CREATE INDEX cron_jobs_due ON cron_jobs (next_run_at, id) WHERE enabled;
CREATE INDEX cron_jobs_order ON cron_jobs (next_run_at NULLS LAST, id);
CREATE TABLE cron_runs (
  job_id text COLLATE "C" NOT NULL,
  seq bigserial,
  entry text NOT NULL,
  PRIMARY KEY (job_id, seq)
);
CREATE TABLE leases (
  name text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  expires_at timestamptz NOT NULL
);`,
  },
  {
    version: 2,
    name: "member epochs: claims and the leader lease bound to their holder's connection",
    sql: `
CREATE SEQUENCE member_epoch AS integer;
ALTER TABLE cron_jobs ADD COLUMN lease_epoch integer;
ALTER TABLE leases ADD COLUMN epoch integer;
CREATE INDEX cron_jobs_claimed ON cron_jobs (lease_epoch) WHERE lease_owner IS NOT NULL;`,
  },
  {
    version: 3,
    name: "MCP tasks: one JSON document per task",
    sql: `
CREATE TABLE tasks (
  task_id text COLLATE "C" PRIMARY KEY,
  record text NOT NULL
);`,
  },
  {
    version: 4,
    name: "claim_due_capped: due jobs claimed under a cluster-wide cap",
    // Claimers under a cap take turns on a transaction-scoped advisory lock (the single-key form:
    // never mistaken for a member's two-key lock), and each statement of the function sees what
    // the previous claimer committed: the live claims are counted and the free slots taken as one.
    sql: `
CREATE FUNCTION claim_due_capped(now_ms bigint, claimer text, lease_ms bigint, max_n integer,
  claimer_epoch integer, cluster_max integer, lock_class integer)
RETURNS TABLE (claimed_job text, claimed_running_at bigint, claimed_next_run_at bigint)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  live bigint[];
  held integer;
BEGIN
  PERFORM pg_advisory_xact_lock(lock_class::bigint);
  SELECT coalesce(array_agg(objid::bigint), '{}') INTO live FROM pg_locks
    WHERE locktype = 'advisory' AND classid = lock_class::oid AND objsubid = 2 AND granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database());
  IF NOT claimer_epoch::bigint = ANY (live) THEN RETURN; END IF;
  SELECT count(*) INTO held FROM cron_jobs c
    WHERE c.lease_owner IS NOT NULL AND c.lease_until > now_ms AND c.lease_epoch::bigint = ANY (live);
  RETURN QUERY
    UPDATE cron_jobs AS c SET lease_owner = claimer, lease_until = now_ms + lease_ms,
      running_at = now_ms, lease_epoch = claimer_epoch
    FROM (SELECT d.id FROM cron_jobs d
          WHERE d.enabled AND d.next_run_at <= now_ms AND (d.lease_owner IS NULL OR d.lease_until <= now_ms)
          ORDER BY d.next_run_at, d.id LIMIT greatest(0, least(max_n, cluster_max - held))
          FOR UPDATE SKIP LOCKED) AS due
    WHERE c.id = due.id RETURNING c.job, c.running_at, c.next_run_at;
END $$;`,
  },
  {
    version: 5,
    name: "runs bound to their holder's connection: the holder's member epoch",
    sql: `
ALTER TABLE runs ADD COLUMN owner_epoch integer;
CREATE INDEX runs_running_epoch ON runs (owner_epoch) WHERE status = 'running';`,
  },
  {
    version: 6,
    name: "session list pages in index order: newest first, ties by key, per agent and overall",
    sql: `
CREATE INDEX sessions_agent_newest ON sessions (agent_id, updated_at DESC, key);
CREATE INDEX sessions_newest ON sessions (updated_at DESC, key);
DROP INDEX sessions_updated;`,
  },
  {
    version: 7,
    name: "the runs a liveness pass judges: running, or their announce pending",
    sql: `
ALTER TABLE runs ADD COLUMN unsettled boolean NOT NULL DEFAULT true;
UPDATE runs SET unsettled = coalesce(status = 'running' OR record::jsonb #>> '{announce,status}' = 'pending', true);
CREATE INDEX runs_unsettled ON runs (created_at, run_id) WHERE unsettled;`,
  },
];

/** A schema name safe to splice into SQL (PostgreSQL refuses names starting with `pg_`). */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema) || schema.startsWith("pg_"))
    throw new Error(
      `PostgreSQL store: schema name ${JSON.stringify(schema)} is not allowed (lower-case letters, digits and _, at most 63, not starting with a digit or pg_)`,
    );
  return schema;
}

/**
 * Brings `schema` up to the newest step. Concurrent starters serialise on a transaction-scoped
 * advisory lock, so two processes starting together apply each step once.
 */
export async function migrate(client: PoolClient, schema: string): Promise<number[]> {
  const applied: number[] = [];
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`clawtools-migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${schema}.migrations`)).rows.map(
        (row) => row.version,
      ),
    );
    await client.query(`SET LOCAL search_path TO ${schema}`);
    for (const step of MIGRATIONS) {
      if (done.has(step.version)) continue;
      await client.query(step.sql);
      await client.query(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [
        step.version,
        step.name,
      ]);
      applied.push(step.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
