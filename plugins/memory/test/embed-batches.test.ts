import { renameSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalEmbedder, type EmbeddingProvider, MemoryIndex } from "../src/index.js";
import { openSqlite } from "../src/store/sqlite.js";
import { workspace } from "./helpers.js";

const local = createLocalEmbedder();

/** The local embedder's vectors, counting the texts it was asked for. */
function counting(cache?: boolean): EmbeddingProvider & { texts: string[] } {
  const texts: string[] = [];
  return {
    id: "counting",
    model: "m",
    dims: local.dims,
    ...(cache === undefined ? {} : { cache }),
    texts,
    embed: async (batch) => {
      texts.push(...batch);
      return local.embed(batch);
    },
  };
}

const dbOf = (ws: string) => path.join(ws, ".state", "mem.sqlite");
const cacheRows = (ws: string) => {
  const db = openSqlite(dbOf(ws));
  try {
    return (db.prepare("SELECT count(*) AS n FROM embedding_cache").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("embedding in batches", () => {
  it("a text embedded before comes from the cache: a renamed file costs no embedding call", async () => {
    const ws = workspace({
      "memory/a.md": "The release train leaves every second Tuesday.\n",
      "memory/b.md": "Carol keeps the on-call rota.\n",
    });
    const embedder = counting();
    const index = new MemoryIndex({ workspaceDir: ws, dbPath: dbOf(ws), embedder });
    await index.sync();
    expect(embedder.texts).toHaveLength(2);
    renameSync(path.join(ws, "memory/a.md"), path.join(ws, "memory/c.md"));
    expect(await index.sync()).toMatchObject({ added: 1, removed: 1, pendingEmbeddings: 0 });
    expect(embedder.texts).toHaveLength(2);
    const out = await index.search("release train Tuesday", { mode: "vector", minScore: 0 });
    expect(out.hits[0]!.path).toBe("memory/c.md");
    index.close();
    expect(cacheRows(ws)).toBe(2);
  });

  it("an embedder that says cache: false (the local one) is asked again and nothing is cached", async () => {
    expect(local.cache).toBe(false);
    const ws = workspace({ "memory/a.md": "The release train leaves every second Tuesday.\n" });
    const embedder = counting(false);
    const index = new MemoryIndex({ workspaceDir: ws, dbPath: dbOf(ws), embedder });
    await index.sync();
    renameSync(path.join(ws, "memory/a.md"), path.join(ws, "memory/c.md"));
    await index.sync();
    expect(embedder.texts).toHaveLength(2);
    expect((await index.search("release train", { mode: "vector" })).hits[0]!.path).toBe("memory/c.md");
    index.close();
    expect(cacheRows(ws)).toBe(0);
  });

  it("a failure in a later batch keeps the earlier batches and counts exactly the rest as pending", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`memory/n${i}.md`, `Note ${i}: topic ${i * 7} of ${i}.\n`]),
    );
    const ws = workspace(files);
    let calls = 0;
    const flaky: EmbeddingProvider = {
      ...counting(),
      embed: async (texts) => {
        if (++calls === 2) throw new Error("503 busy");
        return local.embed(texts);
      },
    };
    const index = new MemoryIndex({ workspaceDir: ws, dbPath: dbOf(ws), embedder: flaky });
    // batches of 256: the first is stored, the second (44 chunks) fails
    expect(await index.sync()).toMatchObject({
      chunks: 300,
      pendingEmbeddings: 44,
      embeddingError: "503 busy",
    });
    expect(await index.sync()).toMatchObject({ chunks: 300, pendingEmbeddings: 0 });
    expect(calls).toBe(3);
    const out = await index.search("Note 299 topic 2093", { mode: "vector", maxResults: 1 });
    expect(out.hits[0]!.path).toBe("memory/n299.md");
    index.close();
  });
});
