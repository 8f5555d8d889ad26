import pg from "pg";
import type { PostgresStore } from "../src/index.js";

/**
 * Cuts a store off from the database the way a killed process is: its liveness connection's
 * backend ends (the server side of what a SIGKILL does to the socket). Returns the epoch it held.
 */
export async function cutOff(url: string, store: PostgresStore): Promise<number> {
  const epoch = store.member.epoch;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query("SELECT pg_terminate_backend($1)", [store.member.backendPid]);
  } finally {
    await admin.end();
  }
  return epoch;
}
