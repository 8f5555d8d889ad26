import type { SessionCursor, SessionEntry } from "@clawtools/core/contracts";
import { millis } from "./db.js";
import type { ParsedEntries } from "./parsed-entries.js";

export interface PageQuery {
  agentId?: string;
  updatedSince?: number;
  limit: number;
  after?: SessionCursor;
}

/**
 * Between two entries of a page's text: U+001E cannot occur raw in JSON text (a control character
 * is escaped inside a string, and outside strings only spaces, tabs and line breaks may stand), so
 * splitting on it gives back each entry's text exactly. A stored entry that holds one anyway is
 * not JSON: the pieces then outnumber the rows, and the page is refused as `parseRow` would.
 */
const SEPARATOR = "\u001e";

/**
 * One session-list page as a keyset statement on the newest-first indexes (`sessions_newest`,
 * `sessions_agent_newest`: updated_at DESC, key): the cursor is a range bound of the index scan,
 * the scan stops after the page's rows, and nothing is sorted, offset or counted. Each combination
 * of filters is its own statement (a `$1 IS NULL OR …` test would hide the bounds from the plan),
 * so each is prepared and planned once per connection. One row more than the page says whether
 * another follows.
 *
 * The rows come back joined into one text, in scan order, with their count, and the last value is
 * the text this process last received for the same query (or null): when the page's text is that
 * text byte for byte, the server says `same` and sends no text again (see `LastPages`).
 */
export function pageStatement(
  table: string,
  query: PageQuery,
): { name: string; text: string; values: unknown[] } {
  const values: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query.agentId !== undefined) where.push(`agent_id = ${param(query.agentId)}`);
  const since = millis(query.updatedSince, Math.ceil);
  if (since !== null) where.push(`updated_at >= ${param(since)}::bigint`);
  if (query.after) {
    const at = param(millis(query.after.updatedAt));
    const key = param(query.after.key);
    // `updated_at <= at` bounds the scan; the rest drops the cursor's own time's keys up to it
    where.push(`updated_at <= ${at}::bigint AND (updated_at < ${at}::bigint OR key > ${key})`);
  }
  const limit = param(query.limit + 1);
  const known = `$${values.length + 1}::text`;
  const name = `list-page-${query.agentId !== undefined ? "a" : ""}${since !== null ? "s" : ""}${query.after ? "c" : ""}`;
  return {
    name,
    text: `SELECT page IS NOT DISTINCT FROM ${known} AS same,
        CASE WHEN page IS NOT DISTINCT FROM ${known} THEN NULL ELSE page END AS page, n
      FROM (SELECT string_agg(entry, E'\\x1e') AS page, count(*)::int AS n
        FROM (SELECT entry FROM ${table} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
          ORDER BY updated_at DESC, key LIMIT ${limit}) AS rows) AS p`,
    values,
  };
}

/** What a page statement answers: whether the page is the known text, else its text; and its row count. */
export interface PageRow {
  same: boolean;
  page: string | null;
  n: number;
}

/** A page's text as received, and the entries' texts in it. */
export interface KnownPage {
  text: string;
  pieces: string[];
}

/**
 * The texts of the pages this store last received, by statement and values: the 16 newest, each
 * up to 64 K characters (about 350 entries; a longer page is read whole every time).
 */
export class LastPages {
  private readonly pages = new Map<string, KnownPage>();

  constructor(
    private readonly max = 16,
    private readonly maxChars = 64 * 1024,
  ) {}

  /** The key of a query: its statement and its values. */
  key(name: string, values: unknown[]): string {
    return `${name}\u0000${JSON.stringify(values)}`;
  }

  /** The page last received for `key` (its text is sent back to the server as the known page). */
  known(key: string): KnownPage | undefined {
    return this.pages.get(key);
  }

  /**
   * The page's entries, newest first: the server's text when it sent one, else (`same`) the text
   * of `sent`, the page sent as known, which the server has just found equal to the page's rows.
   * Entries come from `parsed`, so an entry whose text was parsed before is copied, not parsed again.
   */
  entries(key: string, sent: KnownPage | undefined, row: PageRow, parsed: ParsedEntries): SessionEntry[] {
    if (row.n === 0) {
      this.pages.delete(key);
      return [];
    }
    if (row.same && sent) return sent.pieces.map((piece) => parsed.parse(piece, "a session entry"));
    if (row.page === null)
      throw new Error("PostgreSQL store: a session list page came back without its text");
    const pieces = row.page.split(SEPARATOR);
    if (pieces.length !== row.n) throw new Error("PostgreSQL store: a session entry is not valid JSON");
    const entries = pieces.map((piece) => parsed.parse(piece, "a session entry"));
    // the aggregate reads its rows in scan order; an order it did not keep (no plan here does
    // that) is sorted again rather than trusted, and such a page is not kept
    if (!inOrder(entries)) return entries.sort(newestFirst);
    this.pages.delete(key);
    if (row.page.length <= this.maxChars) {
      if (this.pages.size >= this.max) this.pages.delete(this.pages.keys().next().value as string);
      this.pages.set(key, { text: row.page, pieces });
    }
    return entries;
  }
}

/** The index's order: newest first, equal times by key byte-wise (the keys are `COLLATE "C"`). */
function newestFirst(a: SessionEntry, b: SessionEntry): number {
  return b.updatedAt - a.updatedAt || Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));
}

function inOrder(entries: SessionEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) {
    const a = entries[i - 1]!;
    const b = entries[i]!;
    if (a.updatedAt < b.updatedAt || (a.updatedAt === b.updatedAt && newestFirst(a, b) > 0)) return false;
  }
  return true;
}
