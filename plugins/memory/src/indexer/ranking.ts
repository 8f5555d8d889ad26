import { noteDate } from "./post-process.js";

// Three of OpenClaw 9.6's ranking rules (extensions/memory-core: manager-search.ts, hybrid.ts,
// importance.ts, temporal-decay.ts, packages/memory-host-sdk curated-annotations.ts):
// a query that names a file puts that file first; a curated entry's `<!-- importance: N -->`
// scales its score; and files outside the memory folder age by their modification time.

const pathId = (value: string) =>
  value.trim().replace(/\\/g, "/").replace(/^\.\//, "").normalize("NFC").toLowerCase();

/** A normalised path's file name, and that name without its extension. */
function nameAndStem(normalized: string): [name: string, stem: string] {
  const name = normalized.split("/").at(-1) ?? normalized;
  const dot = name.lastIndexOf(".");
  return [name, dot > 0 ? name.slice(0, dot) : name];
}

/**
 * How exactly the whole query names `path`: 3 its path, 2 its file name, 1 its name without the
 * extension, 0 not at all (a query with a `/` only matches a whole path).
 */
export function exactPathMatcher(query: string): (path: string) => number {
  const wanted = pathId(query);
  if (!wanted || wanted === ".") return () => 0;
  const hasDirectory = wanted.includes("/");
  return (candidate) => {
    const normalized = pathId(candidate);
    if (wanted === normalized) return 3;
    if (hasDirectory) return 0;
    const [name, stem] = nameAndStem(normalized);
    return wanted === name ? 2 : wanted === stem ? 1 : 0;
  };
}

const nameIndexes = new WeakMap<ReadonlyMap<string, unknown>, Map<string, string[]>>();

/**
 * The files (keys of `files`) a query names, as exactPathMatcher judges them. Each file's path,
 * name and stem are normalised once per map (a store answers the same map until its files
 * change), so a query looks its name up instead of normalising every path.
 */
export function namedFiles(
  query: string,
  files: ReadonlyMap<string, unknown>,
  names: (path: string) => number = exactPathMatcher(query),
): string[] {
  let index = nameIndexes.get(files);
  if (!index) {
    index = new Map();
    for (const path of files.keys()) {
      const normalized = pathId(path);
      for (const key of new Set([normalized, ...nameAndStem(normalized)])) {
        const paths = index.get(key);
        if (paths) paths.push(path);
        else index.set(key, [path]);
      }
    }
    nameIndexes.set(files, index);
  }
  // the matcher has the last word (a query with a `/` names whole paths only)
  return (index.get(pathId(query)) ?? []).filter((path) => names(path) > 0);
}

/** The workspace's curated files, whose entries may carry annotations. */
const CURATED_ROOTS = new Set(["MEMORY.md", "memory.md", "USER.md"]);
const ANNOTATION = /<!--\s*(trigger|importance|project)\s*:([\s\S]*?)-->/giu;

/**
 * The highest `<!-- importance: N -->` (1..10) on a line of a curated file's chunk that ends
 * with the annotation; undefined when there is none (or the file is not curated).
 */
export function chunkImportance(path: string, text: string): number | undefined {
  if (!CURATED_ROOTS.has(path)) return undefined;
  let importance: number | undefined;
  for (const line of text.replace(/\r\n/g, "\n").split("\n")) {
    if (!line.trimEnd().endsWith("-->")) continue;
    for (const [, kind, raw] of line.matchAll(ANNOTATION)) {
      const value = raw!.trim();
      if (kind!.toLowerCase() !== "importance" || !/^\d+$/.test(value)) continue;
      const n = Number.parseInt(value, 10);
      if (n >= 1 && n <= 10) importance = Math.max(importance ?? n, n);
    }
  }
  return importance;
}

/** 0.8 for importance 1 up to 1.25 for 10; 1 without one. */
export function importanceMultiplier(importance: number | undefined): number {
  if (importance === undefined) return 1;
  return 0.75 + Math.max(1, Math.min(10, Math.floor(importance))) * 0.05;
}

/** MEMORY.md, USER.md and undated notes under memory/: they never age. */
export function isEvergreen(path: string): boolean {
  const normalized = path.replace(/\\/g, "/").replace(/^\.\//, "");
  if (normalized === "MEMORY.md" || normalized === "USER.md") return true;
  return normalized.startsWith("memory/") && noteDate(normalized) === undefined;
}

/**
 * When a hit's text was written, for the decay: the day in a daily note's name; nothing for an
 * evergreen file; otherwise (an extra path's file) its modification time.
 */
export function writtenAt(path: string, mtimes: ReadonlyMap<string, number>): number | undefined {
  const day = noteDate(path);
  if (day !== undefined) return day;
  if (isEvergreen(path)) return undefined;
  const mtime = mtimes.get(path);
  return mtime !== undefined && Number.isFinite(mtime) ? mtime : undefined;
}

/** A hit that named files' ranking needs: its rank before the reported score is fixed at 1. */
export interface TierHit {
  path: string;
  startLine: number;
  score: number;
  /** 1..3 (see exactPathMatcher). */
  specificity: number;
  /** The weighted vector and keyword score, before decay and importance. */
  content: number;
  rank: number;
}

/**
 * The hits of files the query names, best tier first (path, then name, then stem); inside a tier
 * by rank, re-ranked for diversity by `rerank`. With the decay on, content and path-only hits
 * share a tier; with it off, hits with content come first. Each reports score 1 (9.6).
 */
export function orderNamedFiles<T extends TierHit>(
  hits: T[],
  decayOn: boolean,
  rerank: (hits: T[]) => T[],
): T[] {
  const byRank = (a: T, b: T) => b.rank - a.rank || a.path.localeCompare(b.path) || a.startLine - b.startLine;
  const ranked = (group: T[]) => {
    for (const hit of group) hit.score = hit.rank;
    const out = rerank(group);
    for (const hit of out) hit.score = 1;
    return out;
  };
  return [3, 2, 1].flatMap((specificity) => {
    const tier = hits.filter((h) => h.specificity === specificity).sort(byRank);
    if (decayOn) return ranked(tier);
    return [...ranked(tier.filter((h) => h.content > 0)), ...ranked(tier.filter((h) => !(h.content > 0)))];
  });
}
