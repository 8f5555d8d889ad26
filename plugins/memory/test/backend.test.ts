import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type FileFingerprint,
  type MemoryBackend,
  type MemoryBackendContext,
  type MemoryBackendFactory,
  type MemoryChanges,
  type MemoryHit,
  type SearchOptions,
  SqliteMemoryBackend,
} from "../src/index.js";
import { details, memoryTools, workspace } from "./helpers.js";

// a daily note of today: temporal decay (on by default, as OpenClaw 9.6) leaves its score whole
const today = new Date().toISOString().slice(0, 10);

/**
 * A second backend, written here to prove the seam: chunks in a Map, search by the share of the
 * query's words a chunk contains. Nothing of SQLite, embeddings or the file walker.
 */
class InMemoryBackend implements MemoryBackend {
  readonly fingerprints = new Map<string, FileFingerprint>();
  readonly chunks = new Map<string, Array<Omit<MemoryHit, "score" | "vectorScore" | "textScore">>>();
  closed = false;
  async files() {
    return new Map(this.fingerprints);
  }
  async sync(changes: MemoryChanges) {
    for (const p of changes.removed) {
      this.fingerprints.delete(p);
      this.chunks.delete(p);
    }
    for (const t of changes.touched) Object.assign(this.fingerprints.get(t.path)!, t);
    for (const f of changes.changed) {
      this.fingerprints.set(f.path, { path: f.path, hash: f.hash, mtime: f.mtime, size: f.size });
      this.chunks.set(
        f.path,
        f.chunks.map((c) => ({ path: f.path, startLine: c.startLine, endLine: c.endLine, text: c.text })),
      );
    }
    return { chunks: [...this.chunks.values()].flat().length, pendingEmbeddings: 0 };
  }
  async search(query: string, options: SearchOptions) {
    const words = query.toLowerCase().match(/\p{L}+/gu) ?? [];
    const hits = [...this.chunks.values()]
      .flat()
      .map((c) => {
        const score = words.filter((w) => c.text.toLowerCase().includes(w)).length / (words.length || 1);
        return { ...c, score, vectorScore: 0, textScore: score };
      })
      .filter((h) => h.score > 0 && h.score >= (options.minScore ?? 0))
      .sort((a, b) => b.score - a.score);
    return { hits: hits.slice(0, options.maxResults ?? 6), mode: "keyword" as const };
  }
  async status() {
    return {
      chunks: (await this.sync({ removed: [], changed: [], touched: [] })).chunks,
      files: this.fingerprints.size,
      vector: "none",
    };
  }
  close() {
    this.closed = true;
  }
}

const sqliteFactory: MemoryBackendFactory = (ctx) =>
  new SqliteMemoryBackend({ dbPath: ctx.dbPath, embedder: ctx.embedder });

const backends: Array<[string, () => { factory: MemoryBackendFactory; made: MemoryBackend[] }]> = [
  [
    "SQLite (default)",
    () => {
      const made: MemoryBackend[] = [];
      return { made, factory: (ctx) => made[made.push(sqliteFactory(ctx) as MemoryBackend) - 1]! };
    },
  ],
  [
    "in-memory (written in this test)",
    () => {
      const made: MemoryBackend[] = [];
      return { made, factory: () => made[made.push(new InMemoryBackend()) - 1]! };
    },
  ],
];

describe.each(backends)("memory tools over the %s backend", (_name, make) => {
  it("finds, follows edits and deletions, and cites path and lines", async () => {
    const ws = workspace({
      "MEMORY.md": "# Team\n\nDana leads the mobile team.\n",
      [`memory/${today}.md`]: "Decided: the release train leaves on Mondays.\n",
    });
    const { factory, made } = make();
    const { search, dispose } = memoryTools(ws, { backend: factory });
    const first = details(await search.execute("1", { query: "release train", minScore: 0.1 }));
    expect(first.results[0]).toMatchObject({
      path: `memory/${today}.md`,
      startLine: 1,
      citation: `memory/${today}.md#L1-L1`,
    });

    writeFileSync(path.join(ws, "memory", `${today}.md`), "Decided: the freight barge leaves on Fridays.\n");
    rmSync(path.join(ws, "MEMORY.md"));
    const edited = details(await search.execute("2", { query: "freight barge", minScore: 0.1 }));
    expect(edited.results[0].snippet).toContain("freight barge leaves on Fridays");
    const gone = details(await search.execute("3", { query: "Dana mobile team", minScore: 0.1 }));
    expect(gone.results.map((r: { path: string }) => r.path)).not.toContain("MEMORY.md");

    expect(made).toHaveLength(1); // one backend per agent and workspace, reused across calls
    expect(await made[0]!.status()).toMatchObject({ chunks: 1, files: 1 });
    await dispose();
  });

  it("the factory is told the workspace and agent, once per agent", async () => {
    const ws = workspace({ "MEMORY.md": "Kiwi is the codename.\n" });
    const { factory } = make();
    const seen: MemoryBackendContext[] = [];
    const tools = (agentId: string) =>
      memoryTools(
        ws,
        {
          backend: (ctx) => {
            seen.push(ctx);
            return factory(ctx);
          },
        },
        { agentId },
      );
    const a = tools("alpha");
    await a.search.execute("1", { query: "codename" });
    await a.search.execute("2", { query: "codename" });
    const b = tools("beta");
    await b.search.execute("3", { query: "codename" });
    expect(seen.map((c) => [c.agentId, c.workspaceDir])).toEqual([
      ["alpha", ws],
      ["beta", ws],
    ]);
    expect(seen[0]!.dbPath).not.toBe(seen[1]!.dbPath);
  });
});

describe("backend ownership", () => {
  it("a factory's backends are closed with the plugin; a backend given as an object is left to its owner", async () => {
    const ws = workspace({ "MEMORY.md": "Plum is the codename.\n" });
    const made: InMemoryBackend[] = [];
    const fromFactory = memoryTools(ws, { backend: () => made[made.push(new InMemoryBackend()) - 1]! });
    await fromFactory.search.execute("1", { query: "codename" });
    await fromFactory.dispose();
    expect(made[0]!.closed).toBe(true);

    const owned = new InMemoryBackend();
    const given = memoryTools(ws, { backend: owned });
    const r = details(await given.search.execute("2", { query: "plum codename" }));
    expect(r.results[0].path).toBe("MEMORY.md");
    await given.dispose();
    expect(owned.closed).toBe(false);
  });

  it("a factory that returns no backend is a clear error, and the next call tries again", async () => {
    const ws = workspace({ "MEMORY.md": "Fig.\n" });
    let calls = 0;
    const { search } = memoryTools(ws, {
      backend: () => (calls++ === 0 ? ({} as MemoryBackend) : new InMemoryBackend()),
    });
    const failed = await search.execute("1", { query: "fig" });
    expect(failed).toMatchObject({ isError: true });
    expect(JSON.stringify(failed.content)).toContain("returned no backend (missing files())");
    expect(details(await search.execute("2", { query: "fig" })).results[0].path).toBe("MEMORY.md");
  });
});
