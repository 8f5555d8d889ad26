import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createLocalEmbedder,
  decayMultiplier,
  type MemoryHit,
  MemoryIndex,
  type MmrOptions,
  mmrRerank,
  noteDate,
} from "../src/index.js";
import { workspace } from "./helpers.js";

const NOW = Date.UTC(2026, 10, 22);
const open = (ws: string, extra: Partial<ConstructorParameters<typeof MemoryIndex>[0]> = {}) =>
  new MemoryIndex({
    workspaceDir: ws,
    dbPath: path.join(ws, ".state", "mem.sqlite"),
    embedder: createLocalEmbedder(),
    ...extra,
  });

describe("temporal decay", () => {
  it("halves at the half-life and knows dated notes from evergreen files", () => {
    expect(decayMultiplier(30, 30)).toBeCloseTo(0.5, 10);
    expect(decayMultiplier(60, 30)).toBeCloseTo(0.25, 10);
    expect(decayMultiplier(0, 30)).toBe(1);
    expect(noteDate("memory/2026-11-20.md")).toBe(Date.UTC(2026, 10, 20));
    expect(noteDate("memory/2026-11-20-standup.md")).toBe(Date.UTC(2026, 10, 20));
    expect(noteDate("memory/projects/2026-01-02.md")).toBe(Date.UTC(2026, 0, 2));
    expect(noteDate("MEMORY.md")).toBeUndefined();
    expect(noteDate("memory/people/bob.md")).toBeUndefined();
  });

  it("ranks a recent daily note above an old one with the same content; evergreen files keep their score", async () => {
    const note = "# Router\n\nThe home router admin password rotation happens on the first Monday.\n";
    const ws = workspace({
      "memory/2025-11-22.md": note,
      "memory/2026-11-21.md": note,
      "memory/router.md": note,
    });
    const index = open(ws);
    await index.sync();
    // both are on by default (OpenClaw 9.6): off here to compare the plain scores
    const plain = await index.search("router password rotation", {
      minScore: 0,
      temporalDecay: { enabled: false },
      mmr: { enabled: false },
    });
    const scores = Object.fromEntries(plain.hits.map((h) => [h.path, h.score]));

    const decayed = await index.search("router password rotation", {
      minScore: 0,
      temporalDecay: { enabled: true, halfLifeDays: 30 },
      mmr: { enabled: false },
      nowMs: NOW,
    });
    const after = Object.fromEntries(decayed.hits.map((h) => [h.path, h.score]));
    expect(after["memory/router.md"]).toBeCloseTo(scores["memory/router.md"]!, 10);
    expect(after["memory/2026-11-21.md"]).toBeCloseTo(
      scores["memory/2026-11-21.md"]! * decayMultiplier(1, 30),
      10,
    );
    expect(after["memory/2025-11-22.md"]).toBeCloseTo(
      scores["memory/2025-11-22.md"]! * decayMultiplier(365, 30),
      10,
    );
    expect(decayed.hits.at(-1)!.path).toBe("memory/2025-11-22.md");
    // the threshold applies after the decay: a year-old note falls under it
    const thresholded = await index.search("router password rotation", {
      minScore: 0.05,
      temporalDecay: { enabled: true },
      nowMs: NOW,
    });
    expect(thresholded.hits.map((h) => h.path)).not.toContain("memory/2025-11-22.md");
    index.close();
  });
});

describe("MMR re-ranking", () => {
  it("lets a different answer through ahead of near-duplicates", async () => {
    const dup = (day: number) =>
      `# Deploy ${day}\n\nDeployment steps for staging: build the image, push it, run the migration, restart the deployment.\n`;
    const ws = workspace({
      "memory/2026-11-01.md": dup(1),
      "memory/2026-11-02.md": dup(2),
      "memory/2026-11-03.md": dup(3),
      "memory/troubleshooting.md":
        "# Deployment troubleshooting\n\nWhen a deployment hangs, check the readiness probe and the image pull secret.\n",
    });
    const index = open(ws);
    await index.sync();
    const plain = await index.search("deployment steps", {
      minScore: 0,
      maxResults: 2,
      temporalDecay: { enabled: false },
      mmr: { enabled: false },
    });
    expect(plain.hits.map((h) => h.path)).not.toContain("memory/troubleshooting.md");
    const diverse = await index.search("deployment steps", {
      minScore: 0,
      maxResults: 2,
      temporalDecay: { enabled: false },
      mmr: { enabled: true, lambda: 0.5 },
    });
    expect(diverse.hits.map((h) => h.path)).toContain("memory/troubleshooting.md");
    // λ = 1 is relevance only: the plain order
    const relevanceOnly = await index.search("deployment steps", {
      minScore: 0,
      maxResults: 2,
      temporalDecay: { enabled: false },
      mmr: { enabled: true, lambda: 1 },
    });
    expect(relevanceOnly.hits.map((h) => h.path)).toEqual(plain.hits.map((h) => h.path));
    index.close();
  });

  it("takes defaults from the index options", async () => {
    const ws = workspace({ "MEMORY.md": "alpha beta\n\n", "memory/2020-01-01.md": "alpha beta gamma\n" });
    const index = open(ws, { temporalDecay: { enabled: true, halfLifeDays: 1 } });
    await index.sync();
    const r = await index.search("alpha beta", { minScore: 0 });
    const old = r.hits.find((h) => h.path === "memory/2020-01-01.md");
    expect(old === undefined || old.score < 1e-6).toBe(true);
    index.close();
  });
});

// MMR as it was first written (every candidate against every pick, each round): the fast one
// must pick exactly the same hits in the same order
function referenceMmr(hits: MemoryHit[], options: MmrOptions): MemoryHit[] {
  if (!options.enabled || hits.length <= 1) return hits;
  const lambda = Math.min(1, Math.max(0, options.lambda ?? 0.7));
  if (lambda === 1) return [...hits].sort((a, b) => b.score - a.score);
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const jaccard = (a: Set<string>, b: Set<string>) => {
    if (a.size === 0 && b.size === 0) return 1;
    let shared = 0;
    for (const t of a) if (b.has(t)) shared++;
    return shared / (a.size + b.size - shared);
  };
  const top = Math.max(...hits.map((h) => h.score));
  const bottom = Math.min(...hits.map((h) => h.score));
  const range = top - bottom;
  const pool = hits.map((hit) => ({
    hit,
    words: words(hit.text),
    relevance: range === 0 ? 1 : (hit.score - bottom) / range,
  }));
  const picked: typeof pool = [];
  while (pool.length > 0) {
    let best = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const candidate = pool[i]!;
      const redundancy = picked.reduce((max, p) => Math.max(max, jaccard(candidate.words, p.words)), 0);
      const value = lambda * candidate.relevance - (1 - lambda) * redundancy;
      if (value > bestValue || (value === bestValue && candidate.hit.score > pool[best]!.hit.score)) {
        bestValue = value;
        best = i;
      }
    }
    picked.push(pool.splice(best, 1)[0]!);
  }
  return picked.map((p) => p.hit);
}

describe("MMR re-ranking, incremental", () => {
  const seeded = (seed: number) => {
    let x = seed;
    return () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 4294967296;
    };
  };
  const WORDS = "alpha beta gamma delta router deploy staging image Backup disk 2026 note".split(" ");
  const hitsFor = (seed: number, n: number): MemoryHit[] => {
    const next = seeded(seed);
    return Array.from({ length: n }, (_, i) => {
      const length = Math.floor(next() * 8); // some empty texts: both empty overlap fully
      const text = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");
      // scores from a few values, so ties (in score and in MMR value) are common
      const score = Math.floor(next() * 5) / 4;
      return { path: `memory/n${i}.md`, startLine: 1, endLine: 2, score, vectorScore: 0, textScore: 0, text };
    }).sort((a, b) => b.score - a.score);
  };

  it("picks the same hits in the same order as comparing with every pick each round", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const hits = hitsFor(seed, 1 + (seed % 40));
      for (const lambda of [0, 0.3, 0.5, 0.7, 0.9, 1]) {
        const options = { enabled: true, lambda };
        const full = referenceMmr(hits, options);
        expect(mmrRerank(hits, options)).toEqual(full);
        // the first `limit` picks are the first `limit` of the full re-rank
        for (const limit of [0, 1, 3, 6, 100])
          expect(mmrRerank(hits, options, limit).slice(0, limit)).toEqual(full.slice(0, limit));
      }
    }
  });
});
