import type { SessionCursor } from "@clawtools/core/contracts";
import { millis } from "./db.js";

export interface PageQuery {
  agentId?: string;
  updatedSince?: number;
  limit: number;
  after?: SessionCursor;
}

/**
 * One session-list page as a keyset statement on the newest-first indexes (`sessions_newest`,
 * `sessions_agent_newest`: updated_at DESC, key): the cursor is a range bound of the index scan,
 * the scan stops after the page's rows, and nothing is sorted, offset or counted. Each combination
 * of filters is its own statement (a `$1 IS NULL OR …` test would hide the bounds from the plan),
 * so each is prepared and planned once per connection. One row more than the page says whether
 * another follows.
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
  const name = `list-page-${query.agentId !== undefined ? "a" : ""}${since !== null ? "s" : ""}${query.after ? "c" : ""}`;
  return {
    name,
    text: `SELECT entry FROM ${table} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY updated_at DESC, key LIMIT ${limit}`,
    values,
  };
}
