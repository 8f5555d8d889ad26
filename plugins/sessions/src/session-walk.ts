import type {
  RunRecord,
  RunRegistry,
  SessionCursor,
  SessionEntry,
  SessionStore,
} from "@clawtools/core/contracts";
import type { SessionLookup } from "./visibility.js";

/** Whether `entry` comes after `cursor` in the newest-first order (updatedAt down, then key up). */
function isAfter(entry: SessionEntry, cursor: SessionCursor): boolean {
  return (
    entry.updatedAt < cursor.updatedAt || (entry.updatedAt === cursor.updatedAt && entry.key > cursor.key)
  );
}

/**
 * The sessions newest first (after `start` when given), fetched a page of `batch` at a time
 * from a store with `listPage` (a caller that stops early never pays for the rest), else from
 * `list` in one read.
 */
export async function* newestSessions(
  store: SessionStore,
  filter: { updatedSince?: number },
  batch: number,
  start?: SessionCursor,
): AsyncGenerator<SessionEntry> {
  if (!store.listPage) {
    const all = await store.list(filter);
    yield* start ? all.filter((entry) => isAfter(entry, start)) : all;
    return;
  }
  let after: SessionCursor | undefined = start;
  do {
    const page = await store.listPage({ ...filter, limit: batch, ...(after ? { after } : {}) });
    yield* page.entries;
    after = page.next;
  } while (after);
}

/**
 * The sessions a visibility check walks (a target's `spawnedBy` chain up to the caller), looked
 * up as they are needed and remembered for the rest of the call: checking a page costs the page
 * and its ancestors, not the store.
 */
export class AncestorLookup implements SessionLookup {
  private readonly known = new Map<string, SessionEntry | undefined>();

  constructor(
    private readonly store: SessionStore,
    private readonly callerKey: string,
  ) {}

  get(key: string): SessionEntry | undefined {
    return this.known.get(key);
  }

  /** Loads `entry`'s chain of spawners (at most 64 hops, as the visibility check walks). */
  async load(entry: SessionEntry): Promise<void> {
    this.known.set(entry.key, entry);
    let current: SessionEntry | undefined = entry;
    for (let hops = 0; current?.spawnedBy && current.key !== this.callerKey && hops < 64; hops++) {
      const parent: string = current.spawnedBy;
      if (!this.known.has(parent)) this.known.set(parent, await this.store.get(parent));
      current = this.known.get(parent);
    }
  }
}

/** Past this many rows a listing reads the registry once instead of asking per row. */
const PER_ROW_LOOKUPS = 64;

/**
 * The runs a listing shows for its rows: each row's own run and the child sessions it spawned.
 * A short page asks the registry per row (by child where the registry is indexed so, else among
 * the spawner's runs; children by requester), each answer remembered for the call; a long one
 * reads every run once, which then costs less than a lookup per row.
 */
export async function runsFor(runs: RunRegistry, rows: SessionEntry[]) {
  if (rows.length > PER_ROW_LOOKUPS) {
    const all = await runs.list();
    const byChild = new Map(all.map((r) => [r.childSessionKey, r]));
    const children = new Map<string, string[]>();
    for (const r of all) {
      const list = children.get(r.requesterSessionKey);
      if (list) list.push(r.childSessionKey);
      else children.set(r.requesterSessionKey, [r.childSessionKey]);
    }
    return {
      runOf: async (e: SessionEntry) => byChild.get(e.key),
      childrenOf: async (key: string) => children.get(key) ?? [],
    };
  }
  const byRequester = new Map<string, Promise<RunRecord[]>>();
  const requested = (key: string) => {
    let found = byRequester.get(key);
    if (!found) {
      found = runs.listByRequester(key);
      byRequester.set(key, found);
    }
    return found;
  };
  return {
    runOf: async (e: SessionEntry): Promise<RunRecord | undefined> => {
      if (runs.latestByChild) return runs.latestByChild(e.key);
      // oldest first: the last match is the newest run
      return e.spawnedBy
        ? (await requested(e.spawnedBy)).findLast((r) => r.childSessionKey === e.key)
        : undefined;
    },
    childrenOf: async (key: string) => (await requested(key)).map((r) => r.childSessionKey),
  };
}
