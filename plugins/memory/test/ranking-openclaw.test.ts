import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalEmbedder, decayMultiplier, MemoryIndex } from "../src/index.js";
import { exactPathMatcher, namedFiles } from "../src/indexer/ranking.js";
import { workspace } from "./helpers.js";

// OpenClaw 9.6's memory ranking rules beyond dated notes (extensions/memory-core/src/memory:
// temporal-decay.ts extractTimestamp, manager-search.ts prepareExactPathMatcher, hybrid.ts
// mergeHybridResults, importance.ts importanceMultiplier; curated-annotations.ts).

const DAY = 86_400_000;
const open = (ws: string, extraPaths: string[] = []) =>
  new MemoryIndex({
    workspaceDir: ws,
    dbPath: path.join(ws, ".state", "mem.sqlite"),
    embedder: createLocalEmbedder(),
    extraPaths,
  });
const scoresOf = (hits: Array<{ path: string; score: number }>) =>
  Object.fromEntries(hits.map((h) => [h.path, h.score]));

describe("memory ranking as OpenClaw 9.6", () => {
  it("ages an extra path's file by its modification time; MEMORY.md and memory/ topic notes keep their score", async () => {
    const note = "# Backups\n\nThe nightly backup job copies the database dump to the offsite bucket.\n";
    const ws = workspace({ "MEMORY.md": note, "memory/backups.md": note, "notes/backups.md": note });
    const written = Date.UTC(2026, 5, 1);
    utimesSync(path.join(ws, "notes/backups.md"), written / 1000, written / 1000);
    const index = open(ws, ["notes"]);
    await index.sync();
    const query = "nightly backup offsite bucket";
    const off = { minScore: 0, mmr: { enabled: false } } as const;
    const plain = scoresOf((await index.search(query, { ...off, temporalDecay: { enabled: false } })).hits);
    const nowMs = written + 30 * DAY; // one half-life after the file was written
    const aged = scoresOf(
      (await index.search(query, { ...off, temporalDecay: { enabled: true, halfLifeDays: 30 }, nowMs })).hits,
    );
    expect(Object.keys(plain).sort()).toEqual(["MEMORY.md", "memory/backups.md", "notes/backups.md"]);
    expect(aged["notes/backups.md"]).toBeCloseTo(plain["notes/backups.md"]! * decayMultiplier(30, 30), 10);
    expect(aged["notes/backups.md"]).toBeCloseTo(plain["notes/backups.md"]! / 2, 10);
    expect(aged["MEMORY.md"]).toBeCloseTo(plain["MEMORY.md"]!, 10);
    expect(aged["memory/backups.md"]).toBeCloseTo(plain["memory/backups.md"]!, 10);
    index.close();
  });

  it("puts the file a query names first, path before name before stem, with score 1", async () => {
    const ws = workspace({
      "MEMORY.md":
        "# Deploy\n\nDeploy checklist: deploy after review, deploy with the runbook, deploy on Tuesdays.\n",
      "memory/deploy.md": "# Cats\n\nThe office cats are fed at noon.\n",
      "memory/ops/deploy.md": "# Gardening\n\nWater the plants on Fridays.\n",
    });
    const index = open(ws);
    await index.sync();
    // "deploy" is the stem of both deploy.md files: they come first, whatever their content
    const byStem = (await index.search("deploy", { maxResults: 3 })).hits;
    expect(
      byStem
        .slice(0, 2)
        .map((h) => h.path)
        .sort(),
    ).toEqual(["memory/deploy.md", "memory/ops/deploy.md"]);
    expect(byStem.slice(0, 2).map((h) => h.score)).toEqual([1, 1]);
    expect(byStem[2]!.path).toBe("MEMORY.md");
    expect(byStem[2]!.score).toBeLessThan(1);
    // a whole path names one file (tier 3); the others are ranked by content after it
    const byPath = (await index.search("memory/ops/deploy.md", { maxResults: 1 })).hits;
    expect(byPath.map((h) => [h.path, h.score])).toEqual([["memory/ops/deploy.md", 1]]);
    // the name with its extension (tier 2) names both
    const byName = (await index.search("deploy.md", { maxResults: 2 })).hits;
    expect(byName.map((h) => h.path).sort()).toEqual(["memory/deploy.md", "memory/ops/deploy.md"]);
    index.close();
  });

  it("scales a curated entry by its <!-- importance: N --> annotation: 0.75 + N × 0.05", async () => {
    const entry = (annotation: string) =>
      `# Vendors\n\nThe printer vendor contract renews in March. ${annotation}\n`;
    const score = async (annotation: string, file = "MEMORY.md") => {
      const index = open(workspace({ [file]: entry(annotation) }));
      await index.sync();
      // keyword only: one hit scores 1 before the multiplier
      const [hit] = (await index.search("printer vendor contract", { mode: "keyword", minScore: 0 })).hits;
      index.close();
      return hit!.score;
    };
    expect(await score("<!-- note: 10 -->")).toBeCloseTo(1, 10);
    expect(await score("<!-- importance: 10 -->")).toBeCloseTo(1.25, 10);
    expect(await score("<!-- importance: 1 -->")).toBeCloseTo(0.8, 10);
    // out of range, or not at the end of its line: no importance
    expect(await score("<!-- importance: 11 -->")).toBeCloseTo(1, 10);
    expect(await score("<!-- importance: 10 --> trailing")).toBeCloseTo(1, 10);
    // only the curated root files carry it
    expect(await score("<!-- importance: 10 -->", "memory/vendors.md")).toBeCloseTo(1, 10);
  });
});

describe("named files, looked up by name", () => {
  it("finds the files the matcher names, no more, no fewer", () => {
    const paths = [
      "MEMORY.md",
      "memory.md",
      "USER.md",
      "memory/deploy.md",
      "memory/ops/deploy.md",
      "memory/ops/Deploy.MD",
      "memory/2026-11-20.md",
      "memory/.hidden",
      "memory/archive.tar.gz",
      "notes/Café.md",
      "notes/cafe\u0301.md",
      "notes/no-extension",
      "./notes/dot.md",
    ];
    const files = new Map(paths.map((p, i) => [p, i]));
    const queries = [
      ...paths,
      "deploy",
      "DEPLOY.md",
      " deploy.md ",
      "memory",
      "archive",
      "archive.tar",
      ".hidden",
      "café",
      "cafe\u0301.md",
      "ops/deploy.md",
      "notes/dot.md",
      ".",
      "",
      "deployment steps",
    ];
    for (const query of queries) {
      const names = exactPathMatcher(query);
      expect(namedFiles(query, files).sort(), query).toEqual(paths.filter((p) => names(p) > 0).sort());
    }
  });

  it("sees files added after an earlier search, through this index or another on the same file", async () => {
    // more chunks that match the query better than the new file does than a search takes as
    // candidates (4 × maxResults): the new file can only come from the named-file lookup
    const ws = workspace(
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`memory/f${i}.md`, `# Todo ${i}\n\ntodo md list ${i}\n`]),
      ),
    );
    const index = open(ws);
    const other = open(ws);
    await index.sync();
    const first = async (side: MemoryIndex) => {
      const [hit] = (await side.search("todo.md", { maxResults: 1 })).hits;
      return [hit?.path, hit?.score];
    };
    expect((await first(index))[0]).not.toBe("memory/todo.md");
    expect((await first(other))[0]).not.toBe("memory/todo.md");
    // read again by this index after the other's first search (which may write)
    expect((await first(index))[0]).not.toBe("memory/todo.md");
    writeFileSync(path.join(ws, "memory/todo.md"), "# Groceries\n\nbuy milk\n");
    await index.sync();
    expect(await first(index)).toEqual(["memory/todo.md", 1]);
    // the other connection's cached file list is read again after the commit
    expect(await first(other)).toEqual(["memory/todo.md", 1]);
    index.close();
    other.close();
  });
});
