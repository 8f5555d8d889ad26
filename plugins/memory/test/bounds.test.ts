import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalEmbedder, ftsQuery, listMemoryFiles, MAX_MEMORY_FILE_BYTES } from "../src/index.js";
import { details, memoryTools, workspace } from "./helpers.js";

const MB = 1024 * 1024;

describe("bounds on model-controlled input", () => {
  it("a 1 MB query is searched by its first 2,000 characters, and the result says so", async () => {
    const ws = workspace({ "memory/a.md": "The pager rotation changes on Mondays.\n" });
    const { search } = memoryTools(ws);
    const query = `pager rotation ${"x".repeat(MB)}`;
    const r = details(await search.execute("1", { query, minScore: 0 }));
    expect(r.results[0].path).toBe("memory/a.md");
    expect(r.warning).toBe(`The query is ${query.length} characters; only the first 2000 were searched.`);
  });

  it("FTS5 gets at most 32 distinct quoted words, whatever the query", () => {
    const words = Array.from({ length: 50_000 }, (_, i) => `w${i}`).join(" ");
    const match = ftsQuery(words)!;
    expect(match.split(" OR ")).toHaveLength(32);
    expect(ftsQuery('"; DROP TABLE chunks; --')).toBe('"drop" OR "table" OR "chunks"');
  });

  it("a 1 MB path is refused with an error quoting only its start", async () => {
    const ws = workspace({ "MEMORY.md": "ok\n" });
    const { get } = memoryTools(ws);
    const huge = `memory/${"a".repeat(MB)}.md`;
    const r = details(await get.execute("1", { path: huge }));
    expect(r.error).toBe(
      `path is ${huge.length} characters; memory paths are at most 4096: ${huge.slice(0, 200)}… (${huge.length} characters)`,
    );
    const long = `notes/${"b".repeat(3000)}.txt`;
    expect(details(await get.execute("2", { path: long })).error).toBe(
      `memory_get only reads memory files (MEMORY.md, memory.md, memory/**/*.md or configured extra paths) inside the workspace: ${long.slice(0, 200)}… (${long.length} characters)`,
    );
  });

  it("a memory file over 16 MiB is neither indexed nor read, and both say why", async () => {
    const ws = workspace({ "memory/small.md": "small note about lanterns\n" });
    writeFileSync(path.join(ws, "memory", "huge.md"), "lanterns ".repeat(MAX_MEMORY_FILE_BYTES / 8));
    const listing = await listMemoryFiles(ws);
    const size = MAX_MEMORY_FILE_BYTES + MAX_MEMORY_FILE_BYTES / 8;
    expect(listing.skipped).toEqual([
      { path: "memory/huge.md", reason: `${size} bytes, over the 16777216-byte limit for memory files` },
    ]);
    const { get, search } = memoryTools(ws);
    expect(details(await get.execute("1", { path: "memory/huge.md" })).error).toBe(
      `memory/huge.md is ${size} bytes; memory files are read up to 16777216 bytes.`,
    );
    const r = details(await search.execute("2", { query: "lanterns", minScore: 0 }));
    expect(r.results.map((h: { path: string }) => h.path)).toEqual(["memory/small.md"]);
    expect(r.warning).toBe(
      `Not searched: memory/huge.md (${size} bytes, over the 16777216-byte limit for memory files).`,
    );
  });

  it("the local embedder lets other work run while it embeds many texts", async () => {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await createLocalEmbedder().embed(Array.from({ length: 100 }, (_, i) => `note number ${i}`));
    // without yielding, the whole batch would finish before the event loop turns
    expect(ran).toBe(true);
  });

  it("concurrent syncs of one index write each file once", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`memory/n${i}.md`] = `Note ${i} about kettles.\n`;
    const ws = workspace(files);
    const { search } = memoryTools(ws);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        search.execute(String(i), { query: "kettles", maxResults: 50, minScore: 0 }),
      ),
    );
    for (const answer of answers) {
      const paths = details(answer).results.map((h: { path: string }) => h.path);
      expect(new Set(paths).size).toBe(paths.length);
      expect(paths).toHaveLength(20);
    }
  });
});
