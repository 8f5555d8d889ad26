import { writeFileSync } from "node:fs";
import path from "node:path";
import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { createMemoryPlugin } from "../src/index.js";
import { details, memoryTools, workspace } from "./helpers.js";

// a daily note of today: temporal decay (on by default, as OpenClaw 9.6) leaves its score whole
const today = new Date().toISOString().slice(0, 10);

describe("memory_search", () => {
  it("returns scored snippets with citations", async () => {
    const ws = workspace({
      "MEMORY.md": "# Team\n\nDana leads the mobile team.\nEvan leads the web team.\nFaye runs support.\n",
      [`memory/${today}.md`]: "Decided: the mobile app ships on the first Monday of each month.\n",
    });
    const { search } = memoryTools(ws);
    const r = details(await search.execute("1", { query: "when does the mobile app ship", minScore: 0 }));
    expect(r).toMatchObject({ provider: "local", mode: "hybrid", fallback: null, citations: "on" });
    expect(r.warning).toBeUndefined();
    expect(r.results[0]).toMatchObject({
      path: `memory/${today}.md`,
      startLine: 1,
      endLine: 1,
      source: "memory",
      citation: `memory/${today}.md#L1-L1`,
    });
    expect(r.results[0].snippet).toBe(
      `Decided: the mobile app ships on the first Monday of each month.\n\nSource: memory/${today}.md#L1-L1`,
    );
  });

  it("maxResults 1 for deploy: the curated MEMORY.md before an older daily note, as OpenClaw 9.6 ranks them", async () => {
    // 9.6 searches with temporal decay on (30-day half-life; MEMORY.md and undated notes are
    // evergreen) and MMR on: a month-old daily note that matches better on its own words weighs
    // exp(-ln2 / 30 * 30) = 0.5 of its score, and the curated file comes first
    const day = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const ws = workspace({
      "MEMORY.md":
        "# Curated\n\n## Deploy\n\nProduction deploys go through the release pipeline (make deploy); never deploy on Fridays. Ask Dana before touching the database, keep the changelog current, and tag every release.\n",
      [`memory/${day}.md`]: "Deploy: deploy the api.\n",
    });
    const { search } = memoryTools(ws);
    const curated = details(await search.execute("1", { query: "deploy", maxResults: 1, minScore: 0 }));
    expect(curated.results.map((r: { path: string }) => r.path)).toEqual(["MEMORY.md"]);
    // the same search without the decay (what clawtools did before) puts the daily note first
    const undecayed = memoryTools(ws, { temporalDecay: { enabled: false } });
    const plain = details(
      await undecayed.search.execute("2", { query: "deploy", maxResults: 2, minScore: 0 }),
    );
    expect(plain.results.map((r: { path: string }) => r.path)).toEqual([`memory/${day}.md`, "MEMORY.md"]);
    const both = details(await search.execute("3", { query: "deploy", maxResults: 2, minScore: 0 }));
    const note = both.results.find((r: { path: string }) => r.path === `memory/${day}.md`);
    const age = (Date.now() - Date.parse(`${day}T00:00:00Z`)) / 86_400_000;
    expect(note.score / plain.results[0].score).toBeCloseTo(Math.exp((-Math.LN2 / 30) * age), 3);
  });

  it("corpus: memory and all search memory files; wiki and sessions answer as OpenClaw 9.6 does without them", async () => {
    const ws = workspace({ "memory/a.md": "The staging cluster runs in Frankfurt.\n" });
    const { search } = memoryTools(ws);
    const plain = details(await search.execute("1", { query: "staging cluster", minScore: 0 }));
    const memory = details(
      await search.execute("2", { query: "staging cluster", minScore: 0, corpus: "memory" }),
    );
    expect(memory.results).toEqual(plain.results);
    const all = details(await search.execute("3", { query: "staging cluster", minScore: 0, corpus: "all" }));
    expect(all.results).toEqual(plain.results);
    expect(all.corpora).toEqual([
      { corpus: "memory", outcome: "ok" },
      { corpus: "wiki", outcome: "not-registered" },
    ]);
    const wiki = details(await search.execute("4", { query: "staging cluster", corpus: "wiki" }));
    expect(wiki).toMatchObject({
      results: [],
      corpora: [{ corpus: "wiki", outcome: "not-registered" }],
      warning: "Wiki corpus is not registered; results do not cover that requested corpus.",
    });
    expect(details(await search.execute("5", { query: "staging cluster", corpus: "sessions" }))).toEqual({
      results: [],
      disabled: true,
      unavailable: true,
      error: "Session transcript search is not enabled.",
      warning: "Session transcript search is unavailable for this agent.",
      action: "Use sessions_history to read a session's messages; memory_search covers memory files only.",
    });
    const bad = await search.execute("6", { query: "x", corpus: "everything" });
    expect(bad.isError).toBe(true);
    expect(details(bad).error).toContain("corpus");
  });

  it("refuses unknown arguments, naming them", async () => {
    const ws = workspace({ "MEMORY.md": "ok\n" });
    const { search, get } = memoryTools(ws);
    const s = await search.execute("1", { query: "ok", limit: 3 });
    expect(s.isError).toBe(true);
    expect(details(s).error).toContain("must not have additional properties (limit)");
    const g = await get.execute("2", { path: "MEMORY.md", offset: 2 });
    expect(g.isError).toBe(true);
    expect(details(g).error).toContain("must not have additional properties (offset)");
  });
});

describe("memory_get", () => {
  it("slices lines and says where to continue (OpenClaw 9.6's shape)", async () => {
    const ws = workspace({
      "MEMORY.md": "# Team\n\nDana leads the mobile team.\nEvan leads the web team.\nFaye runs support.\n",
    });
    const { get } = memoryTools(ws);
    expect(details(await get.execute("1", { path: "MEMORY.md", from: 3, lines: 2 }))).toEqual({
      status: "ok",
      path: "MEMORY.md",
      from: 3,
      lines: 2,
      truncated: true,
      nextFrom: 5,
      text: "Dana leads the mobile team.\nEvan leads the web team.\n\n[More content available. Use from=5 to continue.]",
    });
    // the last lines: no notice; the final newline is not a sixth line
    expect(details(await get.execute("2", { path: "MEMORY.md", from: 4 }))).toEqual({
      status: "ok",
      path: "MEMORY.md",
      from: 4,
      lines: 2,
      text: "Evan leads the web team.\nFaye runs support.",
    });
    expect(details(await get.execute("3", { path: "MEMORY.md" }))).toEqual({
      status: "ok",
      path: "MEMORY.md",
      from: 1,
      lines: 5,
      text: "# Team\n\nDana leads the mobile team.\nEvan leads the web team.\nFaye runs support.",
    });
  });

  it("tells a missing file from an empty one", async () => {
    const ws = workspace({ "memory/empty.md": "" });
    const { get } = memoryTools(ws);
    expect(details(await get.execute("1", { path: "memory/missing.md" }))).toEqual({
      status: "not_found",
      path: "memory/missing.md",
      text: "",
    });
    expect(details(await get.execute("2", { path: "memory/empty.md" }))).toEqual({
      status: "ok",
      path: "memory/empty.md",
      from: 1,
      lines: 0,
      text: "",
    });
  });

  it("returns 120 lines by default and keeps an answer within the character budget", async () => {
    const ws = workspace({
      "memory/long.md": Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n"),
      "memory/wide.md": `${"x".repeat(50)}\n${"y".repeat(50)}\n${"z".repeat(50)}\n`,
      "memory/one.md": `${"é".repeat(30)}\nnext\n`,
    });
    const { get } = memoryTools(ws, { memoryGetMaxChars: 60 });
    const { get: roomy } = memoryTools(ws);
    const long = details(await roomy.execute("1", { path: "memory/long.md" }));
    expect(long).toMatchObject({ status: "ok", from: 1, lines: 120, truncated: true, nextFrom: 121 });
    expect(long.text.endsWith("line 120\n\n[More content available. Use from=121 to continue.]")).toBe(true);
    // whole lines within 60 characters: one line of 50, then continue at line 2
    expect(details(await get.execute("2", { path: "memory/wide.md" }))).toEqual({
      status: "ok",
      path: "memory/wide.md",
      from: 1,
      lines: 1,
      truncated: true,
      nextFrom: 2,
      text: `${"x".repeat(50)}\n\n[More content available. Use from=2 to continue.]`,
    });
    const { get: tiny } = memoryTools(ws, { memoryGetMaxChars: 10 });
    // a single line over the budget is cut, with advice to read the file itself
    expect(details(await tiny.execute("3", { path: "memory/wide.md", from: 3 }))).toEqual({
      status: "ok",
      path: "memory/wide.md",
      from: 3,
      lines: 1,
      truncated: true,
      text: `${"z".repeat(10)}\n\n[More content available. Requested excerpt exceeded the default maxChars budget. If you need the full raw line, use read on the source file.]`,
    });
    expect(details(await tiny.execute("4", { path: "memory/one.md" })).text).toBe(
      `${"é".repeat(10)}\n\n[More content available. Use from=2 to continue. If you need the full raw line, use read on the source file.]`,
    );
  });

  it("corpus: wiki is not registered here; all reads memory and says so", async () => {
    const ws = workspace({ "MEMORY.md": "alpha\n" });
    const { get } = memoryTools(ws);
    expect(details(await get.execute("1", { path: "MEMORY.md", corpus: "wiki" }))).toEqual({
      path: "MEMORY.md",
      text: "",
      corpora: [{ corpus: "wiki", outcome: "not-registered" }],
      warning: "Wiki corpus is not registered; results do not cover that requested corpus.",
    });
    expect(details(await get.execute("2", { path: "MEMORY.md", corpus: "all" }))).toEqual({
      status: "ok",
      path: "MEMORY.md",
      from: 1,
      lines: 1,
      text: "alpha",
      corpora: [
        { corpus: "memory", outcome: "ok" },
        { corpus: "wiki", outcome: "not-registered" },
      ],
    });
    expect(details(await get.execute("3", { path: "MEMORY.md", corpus: "memory" })).text).toBe("alpha");
  });

  it("refuses .. and files that are not memory files", async () => {
    const ws = workspace({ "MEMORY.md": "ok\n", "secrets.md": "no\n", "memory/notes.txt": "no\n" });
    const { get } = memoryTools(ws);
    for (const bad of [
      "../etc/passwd.md",
      "secrets.md",
      "memory/notes.txt",
      "/etc/hostname",
      "memory/../secrets.md",
    ]) {
      const r = await get.execute("x", { path: bad });
      expect(r.isError).toBe(true);
      expect(details(r).error).toBe(
        `memory_get only reads memory files (MEMORY.md, memory.md, memory/**/*.md or configured extra paths) inside the workspace: ${bad}`,
      );
    }
  });

  it("reads configured extra paths", async () => {
    const extra = workspace({ "decisions/adr-1.md": "Use Postgres.\n" });
    const ws = workspace({ "MEMORY.md": "ok\n" });
    const dir = path.join(extra, "decisions");
    const { get, search } = memoryTools(ws, { extraPaths: [dir] });
    expect(details(await get.execute("1", { path: path.join(dir, "adr-1.md") }))).toMatchObject({
      status: "ok",
      path: path.join(dir, "adr-1.md"),
      text: "Use Postgres.",
    });
    const hits = details(await search.execute("2", { query: "Postgres", minScore: 0 })).results;
    expect(hits[0].path).toBe(path.join(dir, "adr-1.md"));
  });
});

describe("memory plugin", () => {
  it("passes the contract kit", async () => {
    const ws = workspace({});
    const plugin = createMemoryPlugin();
    expect(await checkPluginContract(plugin, { workspaceDir: ws, stateDir: workspace({}) })).toEqual({
      ok: true,
      problems: [],
    });
    await plugin.dispose?.();
  });

  it("writes nothing into the workspace", async () => {
    const ws = workspace({ "MEMORY.md": "alpha beta\n" });
    const { search } = memoryTools(ws);
    writeFileSync(path.join(ws, "memory.txt"), "unrelated");
    await search.execute("1", { query: "alpha" });
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(ws).sort()).toEqual(["MEMORY.md", "memory.txt"]);
  });
});
