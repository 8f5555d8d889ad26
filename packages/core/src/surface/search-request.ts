import { ToolInputError } from "../errors.js";

/** OpenClaw 9.6's Tool Search limits (docs/tools/tool-search.md), clawtools' defaults. */
export type SearchLimits = {
  /** Results for a query that names no limit (8). */
  defaultLimit: number;
  /** The most results one query returns (20; clamped to 1..50). */
  maxLimit: number;
};

export const DEFAULT_SEARCH_LIMITS: SearchLimits = { defaultLimit: 8, maxLimit: 20 };
export const MAX_BATCH_QUERIES = 16;
export const MAX_BATCH_RESULTS = 50;
export const MAX_QUERY_CHARS = 512;
export const MAX_BATCH_QUERY_BYTES = 512;

export type SearchRequest =
  | { kind: "single"; query: string; limit: number }
  | { kind: "batch"; searches: Array<{ query: string; limit: number }> };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function readLimit(value: unknown, limits: SearchLimits, field = "limit"): number {
  if (value === undefined || value === null) return limits.defaultLimit;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new ToolInputError(`${field} must be a positive integer.`);
  return Math.min(value, limits.maxLimit);
}

function readBatchEntry(value: unknown, index: number, limits: SearchLimits) {
  if (!isRecord(value)) throw new ToolInputError(`queries[${index}] must be an object.`);
  if (typeof value.query !== "string" || !value.query.trim())
    throw new ToolInputError(`queries[${index}].query must be a non-empty string.`);
  const query = value.query.trim();
  if ([...query].length > MAX_QUERY_CHARS)
    throw new ToolInputError(`queries[${index}].query must not exceed ${MAX_QUERY_CHARS} characters.`);
  return { query, limit: readLimit(value.limit, limits, `queries[${index}].limit`) };
}

/**
 * `tool_search`'s arguments as OpenClaw reads them: one `query` (+ `limit`), or a batch `queries`
 * of at most 16, at most 50 results in all and 512 bytes of query text; a non-empty `query` beside
 * a batch runs first. Every refusal names the field and the fix.
 */
export function readSearchRequest(args: unknown, limits: SearchLimits): SearchRequest {
  const params = isRecord(args) ? args : {};
  const query = params.query ?? undefined;
  const queries = params.queries ?? undefined;
  if (query === undefined && queries === undefined) throw new ToolInputError("provide query or queries.");
  if (queries !== undefined && !Array.isArray(queries))
    throw new ToolInputError("queries must be a non-empty array.");
  if (query !== undefined && typeof query !== "string") throw new ToolInputError("query must be a string.");
  const batch = Array.isArray(queries) ? queries : [];
  const single = typeof query === "string" && query.trim() ? query.trim() : undefined;
  if (batch.length === 0) {
    if (single === undefined && queries !== undefined)
      throw new ToolInputError("queries must be a non-empty array.");
    return {
      kind: "single",
      query: typeof query === "string" ? query : "",
      limit: readLimit(params.limit, limits),
    };
  }
  if (single === undefined && params.limit !== undefined && params.limit !== null)
    throw new ToolInputError("set limit on each batch query, not on the batch request.");
  const searches = batch.map((entry, index) => readBatchEntry(entry, index, limits));
  if (single !== undefined) searches.unshift({ query: single, limit: readLimit(params.limit, limits) });
  if (searches.length > MAX_BATCH_QUERIES)
    throw new ToolInputError(`queries may contain at most ${MAX_BATCH_QUERIES} entries.`);
  const requested = searches.reduce((sum, s) => sum + s.limit, 0);
  if (requested > MAX_BATCH_RESULTS)
    throw new ToolInputError(
      `batch queries resolve to ${requested} results, but may request at most ${MAX_BATCH_RESULTS} in total. An omitted limit counts as ${limits.defaultLimit}; set smaller per-query limits and retry.`,
    );
  if (Buffer.byteLength(JSON.stringify(searches.map((s) => s.query))) > MAX_BATCH_QUERY_BYTES)
    throw new ToolInputError(
      `serialized batch query text may use at most ${MAX_BATCH_QUERY_BYTES} UTF-8 bytes.`,
    );
  return { kind: "batch", searches };
}

const SELECTOR_KEYS = ["id", "toolId", "name"] as const;

/** The selector of `tool_describe` / `dispatch_action` (`id`, or `toolId` / `name` as models write it). */
export function readSelector(args: unknown): string {
  const params = isRecord(args) ? args : {};
  for (const key of SELECTOR_KEYS) {
    const value = params[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  throw new ToolInputError("id must be a non-empty string.");
}

/**
 * `dispatch_action`'s target and input: `{id, args}`; a model that flattened the target's
 * arguments beside `id` (local models do) gets them read as `args`.
 */
export function readDispatch(args: unknown): { id: string; input: Record<string, unknown> } {
  const params = isRecord(args) ? args : {};
  const id = readSelector(params);
  const nested = params.args ?? params.input;
  if (nested !== undefined && nested !== null) {
    if (!isRecord(nested)) throw new ToolInputError("args must be an object of the tool's parameters.");
    return { id, input: nested };
  }
  const selector = SELECTOR_KEYS.find((key) => typeof params[key] === "string" && params[key]);
  const input = Object.fromEntries(
    Object.entries(params).filter(([key]) => key !== selector && key !== "args" && key !== "input"),
  );
  return { id, input };
}
