import type { SearchOptions } from "../indexer/search.js";
import type { MemoryChanges } from "./types.js";

/*
 * What a backend is handed is checked before anything is written: a sync with one bad entry
 * changes nothing, and the error names the entry and the field.
 */

const show = (value: unknown) => JSON.stringify(value)?.slice(0, 120) ?? String(value);

/**
 * A file's key: workspace-relative with forward slashes, or absolute for an extra path outside
 * the workspace (the walker shows those as they are, a drive and backslashes on Windows). Never
 * empty, NUL, an empty segment or a `.`/`..` segment: such a key names no file the walker makes.
 */
function checkPath(value: unknown, where: string): void {
  const body = typeof value === "string" ? value.replace(/^([a-zA-Z]:)?[\\/]/, "") : "";
  const ok =
    typeof value === "string" &&
    body !== "" &&
    !value.includes("\0") &&
    body.split(/[\\/]/).every((segment) => segment !== "" && segment !== "." && segment !== "..");
  if (!ok)
    throw new Error(
      `memory sync: ${where} must be a workspace-relative path with forward slashes, or an absolute extra path (got ${show(value)})`,
    );
}

const isCount = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0;

function checkStat(entry: { mtime?: unknown; size?: unknown }, where: string): void {
  if (!isCount(entry.mtime)) throw new Error(`memory sync: ${where}.mtime must be a finite number ≥ 0`);
  if (!isCount(entry.size)) throw new Error(`memory sync: ${where}.size must be a finite number ≥ 0`);
}

/** Throws a clear error for the first malformed entry of `changes`. */
export function checkChanges(changes: MemoryChanges): void {
  if (typeof changes !== "object" || changes === null)
    throw new Error("memory sync: changes must be an object with removed, changed and touched");
  for (const key of ["removed", "changed", "touched"] as const)
    if (!Array.isArray(changes[key])) throw new Error(`memory sync: changes.${key} must be an array`);
  changes.removed.forEach((p, i) => {
    checkPath(p, `removed[${i}]`);
  });
  changes.touched.forEach((t, i) => {
    checkPath(t?.path, `touched[${i}].path`);
    checkStat(t, `touched[${i}]`);
  });
  const seen = new Set<string>();
  changes.changed.forEach((file, i) => {
    const where = `changed[${i}]`;
    checkPath(file?.path, `${where}.path`);
    if (seen.has(file.path)) throw new Error(`memory sync: ${where}.path ${show(file.path)} is listed twice`);
    seen.add(file.path);
    if (typeof file.hash !== "string" || file.hash === "")
      throw new Error(`memory sync: ${where}.hash must be a non-empty string`);
    checkStat(file, where);
    if (!Array.isArray(file.chunks)) throw new Error(`memory sync: ${where}.chunks must be an array`);
    file.chunks.forEach((chunk, j) => {
      const at = `${where}.chunks[${j}]`;
      if (typeof chunk?.text !== "string") throw new Error(`memory sync: ${at}.text must be a string`);
      if (typeof chunk.hash !== "string" || chunk.hash === "")
        throw new Error(`memory sync: ${at}.hash must be a non-empty string`);
      if (!Number.isInteger(chunk.startLine) || chunk.startLine < 1 || !Number.isInteger(chunk.endLine))
        throw new Error(
          `memory sync: ${at} lines must be integers from 1 (got ${chunk.startLine}-${chunk.endLine})`,
        );
      if (chunk.endLine < chunk.startLine)
        throw new Error(`memory sync: ${at}.endLine ${chunk.endLine} is before startLine ${chunk.startLine}`);
    });
  });
}

const MODES = new Set(["hybrid", "vector", "keyword"]);

/** Throws a clear error for a query or option no search can answer. */
export function checkSearch(query: string, options: SearchOptions): void {
  if (typeof query !== "string")
    throw new Error(`memory search: query must be a string (got ${show(query)})`);
  const { maxResults, minScore, mode } = options ?? {};
  if (maxResults !== undefined && !(Number.isInteger(maxResults) && maxResults >= 1))
    throw new Error(`memory search: maxResults must be an integer ≥ 1 (got ${show(maxResults)})`);
  if (minScore !== undefined && !(typeof minScore === "number" && Number.isFinite(minScore)))
    throw new Error(`memory search: minScore must be a finite number (got ${show(minScore)})`);
  if (mode !== undefined && !MODES.has(mode))
    throw new Error(`memory search: mode must be hybrid, vector or keyword (got ${show(mode)})`);
}
