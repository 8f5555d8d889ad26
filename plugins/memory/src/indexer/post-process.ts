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

const DAY_MS = 86_400_000;
// daily notes: memory/2026-03-12.md or memory/2026-03-12-some-slug.md
const DATED_NOTE = /(?:^|\/)memory\/(?:.*\/)?(\d{4})-(\d{2})-(\d{2})(?:-[^/]*)?\.md$/i;

/** The day a daily note is about, from its file name; undefined for evergreen files. */
export function noteDate(relPath: string): number | undefined {
  const m = DATED_NOTE.exec(relPath.replace(/\\/g, "/"));
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) ? undefined : ms;
}

/** exp(-ln2 · age / halfLife): 1 today, 0.5 at one half-life, 0.25 at two. */
export function decayMultiplier(ageDays: number, halfLifeDays: number): number {
  return Math.exp((-Math.LN2 / halfLifeDays) * Math.max(0, ageDays));
}

/**
 * Older daily notes weigh less; evergreen files (MEMORY.md, topic notes without a date) keep
 * their score. Scores are changed in place.
 */
export function applyTemporalDecay(
  hits: MemoryHit[],
  options: TemporalDecayOptions,
  nowMs = Date.now(),
): void {
  if (!options.enabled) return;
  const halfLife = options.halfLifeDays && options.halfLifeDays > 0 ? options.halfLifeDays : 30;
  for (const hit of hits) {
    const day = noteDate(hit.path);
    if (day !== undefined) hit.score *= decayMultiplier((nowMs - day) / DAY_MS, halfLife);
  }
}

const tokens = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Maximal marginal relevance over hits sorted by score: each pick maximises
 * λ·relevance − (1−λ)·(highest word overlap with what was already picked), so near-duplicate
 * snippets from several daily notes do not crowd out everything else.
 */
export function mmrRerank(hits: MemoryHit[], options: MmrOptions): MemoryHit[] {
  if (!options.enabled || hits.length < 3) return hits;
  const lambda = Math.min(1, Math.max(0, options.lambda ?? 0.7));
  const top = Math.max(...hits.map((h) => h.score)) || 1;
  const pool = hits.map((hit) => ({ hit, words: tokens(hit.text), relevance: hit.score / top }));
  const picked: typeof pool = [];
  while (pool.length > 0) {
    let best = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const candidate = pool[i]!;
      const redundancy = picked.reduce((max, p) => Math.max(max, jaccard(candidate.words, p.words)), 0);
      const value = lambda * candidate.relevance - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    picked.push(pool.splice(best, 1)[0]!);
  }
  return picked.map((p) => p.hit);
}
