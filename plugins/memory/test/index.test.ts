import { execFileSync } from "node:child_process";
import { existsSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { chunkMarkdown, createLocalEmbedder, type EmbeddingProvider, MemoryIndex } from "../src/index.js";
import { workspace } from "./helpers.js";

// a test here starts Node under tsx: 10 s and more on a loaded CI machine
vi.setConfig({ testTimeout: 90_000 });

const embedder = createLocalEmbedder();
const open = (ws: string, e: EmbeddingProvider = embedder) =>
  new MemoryIndex({ workspaceDir: ws, dbPath: path.join(ws, ".state", "mem.sqlite"), embedder: e });

describe("chunkMarkdown", () => {
  it("cuts along headings and paragraphs with line ranges and overlap", () => {
    const doc = Array.from(
      { length: 12 },
      (_, i) => `## Section ${i}\n\n${`Sentence about topic ${i}. `.repeat(25)}\n`,
    ).join("\n");
    const chunks = chunkMarkdown(doc, { tokens: 200, overlap: 40 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(200 * 4 + 1);
      expect(
        doc
          .split("\n")
          .slice(c.startLine - 1, c.endLine)
          .join("\n"),
      ).toBe(c.text);
    }
    expect(chunks[1]!.startLine).toBeLessThanOrEqual(chunks[0]!.endLine);
  });
});

describe("MemoryIndex on a real SQLite file", () => {
  it("indexes MEMORY.md and memory/**, skips symlinks and other files", async () => {
    const ws = workspace({
      "MEMORY.md": "# Preferences\n\nAlice prefers tea over coffee in the morning.\n",
      "memory/2026-01-05.md": "# Standup\n\nWe decided to migrate the billing service to Postgres 16.\n",
      "memory/people/bob.md": "Bob owns the deployment pipeline and the staging cluster.\n",
      "notes.md": "Not memory: the launch code is 1234.\n",
    });
    symlinkSync(path.join(ws, "notes.md"), path.join(ws, "memory", "link.md"));
    const index = open(ws);
    const report = await index.sync();
    expect(report).toMatchObject({ added: 3, removed: 0, pendingEmbeddings: 0 });
    const out = await index.search("who runs deployments?", { maxResults: 3 });
    expect(out.mode).toBe("hybrid");
    expect(out.hits[0]).toMatchObject({ path: "memory/people/bob.md", startLine: 1, endLine: 1 });
    expect((await index.search("launch code")).hits.map((h) => h.path)).not.toContain("notes.md");
    index.close();
  });

  it("updates incrementally: edit, add and delete a file", async () => {
    const ws = workspace({
      "memory/a.md": "The office wifi password is stored in the vault.\n",
      "memory/b.md": "Quarterly planning happens in March.\n",
    });
    const index = open(ws);
    await index.sync();
    expect(await index.sync()).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 2 });
    writeFileSync(path.join(ws, "memory/a.md"), "The office wifi password rotates every month.\n");
    utimesSync(path.join(ws, "memory/a.md"), new Date(), new Date(Date.now() + 5000));
    writeFileSync(path.join(ws, "memory/c.md"), "Carol joined the platform team in April.\n");
    rmSync(path.join(ws, "memory/b.md"));
    expect(await index.sync()).toMatchObject({ added: 1, updated: 1, removed: 1, unchanged: 0 });
    const hits = (await index.search("wifi password", { maxResults: 5 })).hits;
    expect(hits[0]!.text).toContain("rotates every month");
    expect(hits.map((h) => h.path)).not.toContain("memory/b.md");
    expect((await index.search("platform team")).hits[0]!.path).toBe("memory/c.md");
    index.close();
  });

  it("persists across a new process", async () => {
    const ws = workspace({ "MEMORY.md": "The production database lives in eu-west-1.\n" });
    const index = open(ws);
    await index.sync();
    index.close();
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "search-once.ts");
    const out = execFileSync(
      process.execPath,
      ["--conditions=@clawtools/source", "--import", "tsx", script, ws, "production database region"],
      {
        encoding: "utf8",
        cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."),
      },
    );
    expect(JSON.parse(out)).toMatchObject({ sync: { added: 0, unchanged: 1 }, top: "MEMORY.md" });
  });

  it("falls back to keyword search when the embedding provider fails, and retries later", async () => {
    const ws = workspace({ "memory/x.md": "The incident postmortem is due on Friday.\n" });
    let failing = true;
    const flaky: EmbeddingProvider = {
      id: "flaky",
      model: "m",
      dims: 256,
      embed: async (texts) => {
        if (failing) throw new Error("429 quota exceeded");
        return embedder.embed(texts);
      },
    };
    const index = open(ws, flaky);
    const report = await index.sync();
    expect(report).toMatchObject({ pendingEmbeddings: 1, embeddingError: "429 quota exceeded" });
    const out = await index.search("postmortem");
    expect(out.mode).toBe("keyword");
    expect(out.fallback).toEqual({ from: "flaky", reason: "429 quota exceeded" });
    expect(out.hits[0]!.path).toBe("memory/x.md");
    failing = false;
    expect(await index.sync()).toMatchObject({ pendingEmbeddings: 0 });
    expect((await index.search("postmortem")).mode).toBe("hybrid");
    index.close();
  });

  it("rebuilds when the embedding model changes", async () => {
    const ws = workspace({ "memory/x.md": "Retention policy is ninety days.\n" });
    const a = open(ws);
    await a.sync();
    a.close();
    const b = open(ws, createLocalEmbedder({ dims: 128 }));
    expect(await b.sync()).toMatchObject({ added: 1 });
    b.close();
    expect(existsSync(path.join(ws, ".state", "mem.sqlite"))).toBe(true);
  });
});
