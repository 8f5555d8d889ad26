import type { SessionCursor, SessionEntry, SessionPage } from "@clawtools/core/contracts";
import { validEntry } from "./ids.js";

type Index = Record<string, SessionEntry>;

/** An agent's index as stored, checked once, with its entries newest first. */
export interface OrderedIndex {
  /** The entries that pass the checks, by key (shared: copy an entry before handing it out). */
  index: Index;
  /** The same entries newest first, equal update times by key ascending. */
  newest: SessionEntry[];
}

/**
 * Keyed by the parsed file value, which the JSON file hands out unchanged while the file is
 * unchanged: the checks and the sort run once per version of the file, not once per call.
 */
const orders = new WeakMap<object, OrderedIndex>();

export function newestFirst(a: Pick<SessionEntry, "updatedAt" | "key">, b: typeof a): number {
  return b.updatedAt - a.updatedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function orderedIndex(raw: Index, agentId: string): OrderedIndex {
  const known = orders.get(raw);
  if (known) return known;
  const keys = Object.keys(raw);
  const index = keys.every((k) => validEntry(raw[k], k, agentId))
    ? raw
    : Object.fromEntries(keys.filter((k) => validEntry(raw[k], k, agentId)).map((k) => [k, raw[k]!]));
  const ordered = { index, newest: Object.values(index).sort(newestFirst) };
  orders.set(raw, ordered);
  return ordered;
}

/** The position of the first entry that comes after `cursor` (binary search). */
function startAfter(newest: SessionEntry[], cursor: SessionCursor | undefined): number {
  if (!cursor) return 0;
  let lo = 0;
  let hi = newest.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newestFirst(newest[mid]!, cursor) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function checkPageQuery(query: { limit: number; after?: SessionCursor; updatedSince?: number }) {
  if (!Number.isInteger(query.limit) || query.limit < 1)
    throw new Error(`listPage: limit must be a positive integer, got ${String(query.limit)}`);
  const after = query.after;
  if (after && (typeof after.key !== "string" || !Number.isFinite(after.updatedAt)))
    throw new Error("listPage: after must be { updatedAt: number, key: string } from a previous page");
  if (query.updatedSince !== undefined && !Number.isFinite(query.updatedSince))
    throw new Error("listPage: updatedSince must be a finite number of milliseconds");
}

/**
 * One page merged from the agents' ordered lists: a binary search per list for the cursor, then
 * only the page's entries are visited (and copied).
 */
export function pageOf(
  lists: SessionEntry[][],
  query: { limit: number; after?: SessionCursor; updatedSince?: number },
): SessionPage {
  const positions = lists.map((list) => startAfter(list, query.after));
  const inRange = (e: SessionEntry | undefined) =>
    e !== undefined && (query.updatedSince === undefined || e.updatedAt >= query.updatedSince);
  const entries: SessionEntry[] = [];
  while (entries.length < query.limit) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const e = lists[i]![positions[i]!];
      if (inRange(e) && (best < 0 || newestFirst(e!, lists[best]![positions[best]!]!) < 0)) best = i;
    }
    if (best < 0) break;
    entries.push({ ...lists[best]![positions[best]!]! });
    positions[best]!++;
  }
  const more = lists.some((list, i) => inRange(list[positions[i]!]));
  const last = entries.at(-1);
  return more && last ? { entries, next: { updatedAt: last.updatedAt, key: last.key } } : { entries };
}
