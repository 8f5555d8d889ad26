import { describe, expect, it } from "./vitest-api.js";
import { conformanceEmbedder, memoryFile, none, rejection, SAMPLE } from "./memory-backend-fixtures.js";
import { memorySearchSteps } from "./memory-backend-search-steps.js";
import type {
  ConformanceMemoryChanges,
  Factory,
  MemoryBackendConformanceOptions,
} from "./memory-backend-types.js";

/*
 * Conformance suite for @clawtools/memory's `MemoryBackend` seam (where memory chunks live and
 * how they are searched): SQLite, Postgres, a vector service. The seam's shape
 * (memory-backend-types.ts) is written structurally so this kit needs no dependency on the memory plugin:
 *
 *   memoryBackendConformance(({ dir, embedder }) => new MyBackend({ dir, embedder }), { persistent: true });
 *
 * The factory is called once per test with a fresh directory; `persistent` says a second call
 * with the same directory opens what the first one stored. The embedder is deterministic (a
 * hashed bag of words) so vector ranking is predictable; a backend that embeds server-side may
 * ignore it, as long as related text still ranks first.
 */

export type {
  ConformanceEmbedder,
  ConformanceFingerprint,
  ConformanceMemoryChanges,
  ConformanceMemoryHit,
  MemoryBackendConformanceOptions,
  MemoryBackendUnderTest,
  MemoryBackendUnderTestSetup,
} from "./memory-backend-types.js";

export { conformanceEmbedder, memoryFile } from "./memory-backend-fixtures.js";

/** Declares the MemoryBackend conformance suite for the backends `factory` makes. */
export function memoryBackendConformance(
  factory: Factory,
  options: MemoryBackendConformanceOptions = {},
): void {
  const open = async (dir?: string) => {
    const setup = { dir: dir ?? options.tempDir?.() ?? "", embedder: conformanceEmbedder() };
    return { backend: await factory(setup), dir: setup.dir };
  };
  const seeded = async () => {
    const made = await open();
    const result = await made.backend.sync({ ...none, changed: SAMPLE });
    return { ...made, result };
  };

  describe(options.name ?? "MemoryBackend conformance", () => {
    it("a new backend is empty: no files, no chunks, no hits in any mode", async () => {
      const { backend } = await open();
      expect((await backend.files()).size).toBe(0);
      expect(await backend.status()).toMatchObject({ chunks: 0, files: 0 });
      for (const mode of ["hybrid", "vector", "keyword"] as const)
        expect((await backend.search("apples", { mode })).hits).toEqual([]);
      await backend.close();
    });

    it("sync stores each changed file's fingerprint and chunks", async () => {
      const { backend, result } = await seeded();
      expect(result).toMatchObject({ chunks: 4, pendingEmbeddings: 0 });
      const files = await backend.files();
      expect([...files.keys()].sort()).toEqual(["MEMORY.md", "memory/garage.md", "memory/orchard.md"]);
      const { chunks: _c, ...fingerprint } = SAMPLE[0]!;
      expect(files.get("memory/orchard.md")).toEqual(fingerprint);
      expect(await backend.status()).toMatchObject({ chunks: 4, files: 3 });
      expect(typeof (await backend.status()).vector).toBe("string");
      await backend.close();
    });

    it("a changed file's chunks replace all it had; touched keeps the hash; removed forgets the file", async () => {
      const { backend } = await seeded();
      const edited = memoryFile("memory/orchard.md", ["The barn stores hay for winter."], 1_700_000_100_000);
      expect((await backend.sync({ ...none, changed: [edited] })).chunks).toBe(3);
      expect((await backend.search("apples pears harvest", { mode: "keyword" })).hits).toEqual([]);
      const barn = await backend.search("barn hay", { mode: "keyword" });
      expect(barn.hits[0]).toMatchObject({ path: "memory/orchard.md", startLine: 1, endLine: 1 });
      expect(barn.hits[0]!.text).toContain("The barn stores hay");

      await backend.sync({ ...none, touched: [{ path: "MEMORY.md", mtime: 42, size: 27 }] });
      expect((await backend.files()).get("MEMORY.md")).toEqual({
        path: "MEMORY.md",
        hash: SAMPLE[2]!.hash,
        mtime: 42,
        size: 27,
      });
      expect((await backend.search("Dana mobile", { mode: "keyword" })).hits[0]?.path).toBe("MEMORY.md");

      await backend.sync({ ...none, removed: ["memory/garage.md"] });
      expect((await backend.files()).has("memory/garage.md")).toBe(false);
      expect((await backend.search("bicycle mower", {})).hits.map((h) => h.path)).not.toContain(
        "memory/garage.md",
      );
      expect(await backend.status()).toMatchObject({ chunks: 2, files: 2 });
      await backend.close();
    });

    memorySearchSteps(seeded);

    it("bad input is refused with an error naming it, and a refused sync changes nothing", async () => {
      const { backend } = await seeded();
      const good = memoryFile("memory/new.md", ["A fresh note about kayaks."]);
      const bad: Array<[ConformanceMemoryChanges, RegExp]> = [
        [{ ...none, changed: [good, { ...good, path: "../outside.md" }] }, /path/],
        [{ ...none, changed: [{ ...good, path: "memory/./a.md" }] }, /path/],
        [{ ...none, changed: [{ ...good, path: "memory//a.md" }] }, /path/],
        [{ ...none, changed: [{ ...good, path: "" }] }, /path/],
        [{ ...none, changed: [{ ...good, chunks: [{ ...good.chunks[0]!, startLine: 0 }] }] }, /line/i],
        [
          { ...none, changed: [{ ...good, chunks: [{ ...good.chunks[0]!, endLine: 0, startLine: 2 }] }] },
          /line/i,
        ],
        [{ ...none, changed: [good, good] }, /twice|duplicate/i],
        [{ ...none, removed: ["../MEMORY.md"] }, /path/],
        [{ ...none, touched: [{ path: "MEMORY.md", mtime: Number.NaN, size: 1 }] }, /mtime/],
      ];
      for (const [changes, named] of bad) {
        const error = await rejection(backend.sync(changes));
        expect(error.message, JSON.stringify(changes).slice(0, 200)).toMatch(named);
      }
      expect((await backend.files()).has("memory/new.md")).toBe(false);
      expect(await backend.status()).toMatchObject({ chunks: 4, files: 3 });
      const searches: Array<[unknown, Record<string, unknown>, RegExp]> = [
        ["apples", { maxResults: 0 }, /maxResults/],
        ["apples", { maxResults: 2.5 }, /maxResults/],
        ["apples", { minScore: Number.NaN }, /minScore/],
        ["apples", { mode: "fuzzy" }, /mode/],
        [42, {}, /query/],
      ];
      for (const [query, opts, named] of searches)
        expect((await rejection(backend.search(query as string, opts))).message).toMatch(named);
      await backend.close();
    });

    it("an extra path outside the workspace is keyed by its absolute path, as given", async () => {
      const { backend } = await open();
      const extra = memoryFile("/srv/team-notes/kayaks.md", ["Kayaks are stored in shed four."]);
      await backend.sync({ ...none, changed: [extra] });
      expect([...(await backend.files()).keys()]).toEqual(["/srv/team-notes/kayaks.md"]);
      expect((await backend.search("kayaks shed", { mode: "keyword" })).hits[0]?.path).toBe(
        "/srv/team-notes/kayaks.md",
      );
      await backend.close();
    });

    it("an aborted sync stores nothing", async () => {
      const { backend } = await open();
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      await rejection(backend.sync({ ...none, changed: SAMPLE }, controller.signal));
      expect((await backend.files()).size).toBe(0);
      await backend.close();
    });

    it("overlapping calls do not lose writes", async () => {
      const { backend } = await open();
      const files = Array.from({ length: 6 }, (_, i) =>
        memoryFile(`memory/n${i}.md`, [`Note ${i} about otters.`]),
      );
      await Promise.all([
        ...files.map((f) => backend.sync({ ...none, changed: [f] })),
        backend.search("otters", {}),
        backend.status(),
      ]);
      expect((await backend.files()).size).toBe(6);
      expect((await backend.search("otters", { mode: "keyword", maxResults: 10 })).hits).toHaveLength(6);
      await backend.close();
    });

    it.skipIf(!options.persistent)("what was synced is there after close and reopen", async () => {
      const first = await seeded();
      await first.backend.close();
      const { backend } = await open(first.dir);
      expect((await backend.files()).get("memory/garage.md")?.hash).toBe(SAMPLE[1]!.hash);
      expect(await backend.status()).toMatchObject({ chunks: 4, files: 3 });
      expect((await backend.search("bicycle mower", { mode: "vector" })).hits[0]?.path).toBe(
        "memory/garage.md",
      );
      await backend.close();
    });
  });
}
