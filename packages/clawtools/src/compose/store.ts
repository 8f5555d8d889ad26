import type { ClawtoolsPlugin } from "@clawtools/core";
import type { PostgresStore } from "@clawtools/store-postgres";
import { BundleConfigError } from "./errors.js";
import { type LazySectionPlugin, lazySectionPlugin } from "../lazy.js";
import { SECTION_MANIFESTS } from "../manifests/index.js";

/** How long opening the store may take before the start fails (a database that does not answer). */
export const STORE_CONNECT_TIMEOUT_MS = 5_000;

/** The sessions, runs, cron jobs and leader lease on one database, and its closing. */
export type BundleStore = PostgresStore;

/**
 * Connects and migrates before the server serves anything: a database that cannot be reached
 * fails the start within STORE_CONNECT_TIMEOUT_MS, naming the store (password left out) and why.
 */
export async function openBundleStore(url: string, maxConnections?: number): Promise<BundleStore> {
  const { openPostgresStore } = await import("@clawtools/store-postgres");
  try {
    return await openPostgresStore({
      connectionString: url,
      connectTimeoutMs: STORE_CONNECT_TIMEOUT_MS,
      ...(maxConnections !== undefined ? { maxConnections } : {}),
    });
  } catch (error) {
    // an operator's problem (where the database is, its state): one line, the message is the
    // whole story (a trace through the bundle's code would only bury it)
    throw new BundleConfigError(error instanceof Error ? error.message : String(error));
  }
}

/** What serve says at start about where its state goes. */
export function describeState(store: BundleStore | undefined, stateDir: string | undefined): string {
  return store
    ? `sessions, runs and cron jobs in PostgreSQL store ${store.location}`
    : `sessions, runs and cron jobs in embedded files under ${stateDir ?? "(no state directory)"}`;
}

/**
 * A plugin with no tools that closes the store when the registry is disposed. Registered before
 * the sections wired to the store, it is disposed after them (the registry disposes in reverse),
 * so the scheduler's last release and the sessions' last writes still reach the database.
 */
export function storeCloser(store: BundleStore): ClawtoolsPlugin {
  return { id: "clawtools/store", version: "0.0.0", tools: [], dispose: () => store.close() };
}

/** The sessions section on the store's sessions and runs (no runner: sub-agents need --model). */
export function sessionsOnStore(store: BundleStore): LazySectionPlugin | undefined {
  const manifest = SECTION_MANIFESTS.sessions;
  if (!manifest) return undefined;
  return lazySectionPlugin(manifest, async () =>
    (await import("@clawtools/sessions")).createSessionsPlugin({ store: store.sessions, runs: store.runs }),
  );
}
