import type { MemoryHit } from "./search.js";

export interface TemporalDecayOptions {
  enabled: boolean;
  /** Days after which a dated note counts half (default 30). */
  halfLifeDays?: number;
}

export interface MmrOptions {
  enabled: boolean;
  /** 1 = relevance only, 0 = diversity only (default 0.7). */
  lambda?: number;
}

/**
 * OpenClaw 9.6 searches with both on (memory-search config: temporal decay with a 30-day
 * half-life, MMR with λ 0.7), so a curated MEMORY.md outranks an older daily note that matches
 * about as well. Either can be turned off in the configuration.
 */
export const DEFAULT_TEMPORAL_DECAY: TemporalDecayOptions = { enabled: true, halfLifeDays: 30 };
export const DEFAULT_MMR: MmrOptions = { enabled: true, lambda: 0.7 };

const DAY_MS = 86_400_000;
// daily notes: memory/2026-03-12.md or memory/2026-03-12-some-slug.md
const DATED_NOTE = /(?:^|\/)memory\/(?:[^/]+\/)*(\d{4})-(\d{2})-(\d{2})(?:-[^/]+)?\.md$/;

/** The day a daily note is about, from its file name; undefined for evergreen files and impossible dates. */
export function noteDate(relPath: string): number | undefined {
  const m = DATED_NOTE.exec(relPath.replace(/\\/g, "/").replace(/^\.\//, ""));
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // 2026-02-30 is no day: OpenClaw leaves such a file undated
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return date.getTime();
}

/** exp(-ln2 · age / halfLife): 1 today, 0.5 at one half-life, 0.25 at two. */
export function decayMultiplier(ageDays: number, halfLifeDays: number): number {
  return Math.exp((-Math.LN2 / halfLifeDays) * Math.max(0, ageDays));
}

/**
 * Older text weighs less: `writtenAt` says when a hit's file was written (by default the day in
 * a daily note's name); a file it knows no time for (MEMORY.md, topic notes without a date)
 * keeps its score. Scores are changed in place.
 */
export function applyTemporalDecay(
  hits: MemoryHit[],
  options: TemporalDecayOptions,
  nowMs = Date.now(),
  writtenAt: (path: string) => number | undefined = noteDate,
): void {
  if (!options.enabled) return;
  const halfLife = options.halfLifeDays && options.halfLifeDays > 0 ? options.halfLifeDays : 30;
  for (const hit of hits) {
    const at = writtenAt(hit.path);
    if (at !== undefined) hit.score *= decayMultiplier((nowMs - at) / DAY_MS, halfLife);
  }
}

const tokens = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  // the shared count is the same from either side: walk the smaller set
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Maximal marginal relevance over hits sorted by score: each pick maximises
 * λ·relevance − (1−λ)·(highest word overlap with what was already picked), so near-duplicate
 * snippets from several daily notes do not crowd out everything else.
 *
 * With `limit`, only the first `limit` picks are made (returned first; the rest may be left out):
 * the picks are greedy, so they are the first `limit` of the full re-rank. Each candidate keeps its highest overlap so
 * far, updated against the latest pick only, so n candidates cost about n·picks word-set
 * comparisons (not n²·picks).
 */
export function mmrRerank<T extends MemoryHit>(hits: T[], options: MmrOptions, limit?: number): T[] {
  if (!options.enabled || hits.length <= 1) return hits;
  const lambda = Math.min(1, Math.max(0, options.lambda ?? 0.7));
  if (lambda === 1) return [...hits].sort((a, b) => b.score - a.score);
  // relevance spread over the candidates' score range, as OpenClaw 9.6's mmrRerank
  const top = Math.max(...hits.map((h) => h.score));
  const bottom = Math.min(...hits.map((h) => h.score));
  const range = top - bottom;
  const pool = hits.map((hit) => ({
    hit,
    words: tokens(hit.text),
    relevance: range === 0 ? 1 : (hit.score - bottom) / range,
    // the highest overlap with a picked hit: 0 before any pick
    redundancy: 0,
  }));
  const picks = limit === undefined ? pool.length : Math.max(0, Math.min(pool.length, Math.floor(limit)));
  const picked: typeof pool = [];
  while (picked.length < picks) {
    let best = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const candidate = pool[i]!;
      const value = lambda * candidate.relevance - (1 - lambda) * candidate.redundancy;
      if (value > bestValue || (value === bestValue && candidate.hit.score > pool[best]!.hit.score)) {
        bestValue = value;
        best = i;
      }
    }
    const pick = pool.splice(best, 1)[0]!;
    picked.push(pick);
    if (picked.length < picks)
      for (const candidate of pool)
        candidate.redundancy = Math.max(candidate.redundancy, jaccard(candidate.words, pick.words));
  }
  return picked.map((p) => p.hit);
}
