import type { EmbeddingProvider } from "../embed/types.js";
import type { Candidate, IndexStore } from "../store/index-store.js";
import {
  applyTemporalDecay,
  DEFAULT_MMR,
  DEFAULT_TEMPORAL_DECAY,
  type MmrOptions,
  mmrRerank,
  type TemporalDecayOptions,
} from "./post-process.js";
import {
  chunkImportance,
  exactPathMatcher,
  importanceMultiplier,
  namedFiles,
  orderNamedFiles,
  type TierHit,
  writtenAt,
} from "./ranking.js";

/** Queries are searched up to this many characters; the rest is dropped and the result says so. */
export const MAX_QUERY_CHARS = 2000;
/** Distinct words of a query sent to FTS5. */
const MAX_QUERY_WORDS = 32;
/** Chunks of files a query names that are ranked (OpenClaw 9.6's EXACT_PATH_CANDIDATE_LIMIT). */
const NAMED_FILE_CHUNKS = 200;

export interface MemoryHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  vectorScore: number;
  textScore: number;
  text: string;
}

export interface SearchOutcome {
  hits: MemoryHit[];
  mode: "hybrid" | "vector" | "keyword";
  /** Set when vector search was unavailable and keyword search answered alone. */
  fallback?: { from: string; reason: string };
  /** Set when the query was longer than MAX_QUERY_CHARS: only its first part was searched. */
  queryTruncated?: { length: number; searched: number };
}

export interface SearchOptions {
  maxResults?: number;
  minScore?: number;
  mode?: "hybrid" | "vector" | "keyword";
  signal?: AbortSignal;
  /** Older daily notes (memory/YYYY-MM-DD.md) weigh less. */
  temporalDecay?: TemporalDecayOptions;
  /** Re-rank for diversity. */
  mmr?: MmrOptions;
  /** "Now" for the temporal decay (tests). */
  nowMs?: number;
}

export interface SearchDefaults {
  /** Hybrid weights, normalised to sum 1. */
  vectorWeight: number;
  textWeight: number;
  temporalDecay?: TemporalDecayOptions | undefined;
  mmr?: MmrOptions | undefined;
}

/** Builds an FTS5 query that matches any of the query's words (quoted, so syntax is inert). */
export function ftsQuery(query: string): string | undefined {
  const words =
    query
      .slice(0, MAX_QUERY_CHARS)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, MAX_QUERY_WORDS);
  return unique.length ? unique.map((w) => `"${w}"`).join(" OR ") : undefined;
}

/**
 * Hybrid search (vector 0.7 / keyword 0.3 by default), keyword only when embedding the query
 * fails; then OpenClaw's post-processing order: merge → temporal decay → threshold → sort →
 * MMR → top K.
 */
export async function searchIndex(
  store: IndexStore,
  embedder: EmbeddingProvider,
  defaults: SearchDefaults,
  rawQuery: string,
  options: SearchOptions = {},
): Promise<SearchOutcome> {
  const query = rawQuery.length > MAX_QUERY_CHARS ? rawQuery.slice(0, MAX_QUERY_CHARS) : rawQuery;
  const maxResults = options.maxResults ?? 6;
  const k = maxResults * 4;
  let mode = options.mode ?? "hybrid";
  let fallback: SearchOutcome["fallback"];
  let vector: Candidate[] = [];
  if (mode !== "keyword") {
    try {
      const [qv] = await embedder.embed([query], options.signal);
      if (!qv) throw new Error("the embedder returned no vector for the query");
      vector = await store.vectorCandidates(qv, k);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      fallback = { from: embedder.id, reason: (error as Error).message };
      mode = "keyword";
    }
  }
  const match = mode === "vector" ? undefined : ftsQuery(query);
  const keyword = match ? store.keywordCandidates(match, k) : [];
  const merged = new Map<number, { v: number; t: number }>();
  for (const c of vector) merged.set(c.id, { v: Math.max(0, c.score), t: 0 });
  for (const c of keyword) merged.set(c.id, { v: merged.get(c.id)?.v ?? 0, t: c.score });
  // a query that names a file (its path, name or stem) brings that file's chunks, first (9.6)
  const names = exactPathMatcher(query);
  const mtimes = store.fileTimes();
  const named = namedFiles(query, mtimes, names);
  for (const id of store.chunksOf(named, NAMED_FILE_CHUNKS))
    if (!merged.has(id)) merged.set(id, { v: 0, t: 0 });
  const weight =
    mode === "hybrid"
      ? { v: defaults.vectorWeight, t: defaults.textWeight }
      : mode === "vector"
        ? { v: 1, t: 0 }
        : { v: 0, t: 1 };
  const minScore = mode === "keyword" && fallback ? 0 : (options.minScore ?? 0);
  const decay = options.temporalDecay ?? defaults.temporalDecay ?? DEFAULT_TEMPORAL_DECAY;
  const hits: Array<MemoryHit & TierHit> = [];
  const rows = store.chunks([...merged.keys()]);
  for (const [id, s] of merged) {
    const row = rows.get(id);
    if (!row) continue;
    const content = weight.v * s.v + weight.t * s.t;
    const specificity = names(row.path);
    // a named file's chunk ranks by its content, halved toward 1 when dates count (9.6)
    const score =
      specificity === 0
        ? content
        : decay.enabled
          ? (1 + Math.min(1, Math.max(0, content))) / 2
          : content > 0
            ? content
            : 1;
    hits.push({ ...row, score, vectorScore: s.v, textScore: s.t, specificity, content, rank: 0 });
  }
  // older text weighs less: daily notes by their date, other files outside memory/ by mtime
  applyTemporalDecay(hits, decay, options.nowMs, (p) => writtenAt(p, mtimes));
  for (const hit of hits) {
    hit.score *= importanceMultiplier(chunkImportance(hit.path, hit.text));
    hit.rank = hit.score;
  }
  const mmr = options.mmr ?? defaults.mmr ?? DEFAULT_MMR;
  const first = orderNamedFiles(
    hits.filter((h) => h.specificity > 0),
    decay.enabled,
    (group) => mmrRerank(group, mmr),
  );
  const kept = hits.filter((hit) => hit.specificity === 0 && hit.score >= minScore);
  kept.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.startLine - b.startLine);
  // only the picks that can make the top K are made (MMR's greedy picks come out in order)
  const ranked = [...first, ...mmrRerank(kept, mmr, maxResults - first.length)].map(
    ({ specificity: _s, content: _c, rank: _r, ...hit }) => hit,
  );
  return {
    hits: ranked.slice(0, maxResults),
    mode,
    ...(fallback ? { fallback } : {}),
    ...(query !== rawQuery ? { queryTruncated: { length: rawQuery.length, searched: query.length } } : {}),
  };
}
