import pg from "pg";
import type { PostgresStore } from "../src/index.js";

/**
 * Cuts a store off from the database the way a killed process is: its liveness connection's
 * backend ends (the server side of what a SIGKILL does to the socket), its locks released when
 * this returns. Returns the epoch it held.
 */
export async function cutOff(url: string, store: PostgresStore): Promise<number> {
  const epoch = store.member.epoch;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // with a timeout it returns once the backend has ended, and with it the locks it held
    // (without one it returns as soon as the signal is sent, before the locks go)
    await admin.query("SELECT pg_terminate_backend($1, 10000)", [store.member.backendPid]);
  } finally {
    await admin.end();
  }
  return epoch;
}
