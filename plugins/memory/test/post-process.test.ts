import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalEmbedder, decayMultiplier, MemoryIndex, noteDate } from "../src/index.js";
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
