import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "./sessions-conformance.js";

/*
 * Conformance suite for @clawtools/memory's `MemoryBackend` seam (where memory chunks live and
 * how they are searched): SQLite, Postgres, a vector service. The types below are the seam's
 * shape, written structurally so this kit needs no dependency on the memory plugin:
 *
 *   memoryBackendConformance(({ dir, embedder }) => new MyBackend({ dir, embedder }), { persistent: true });
 *
 * The factory is called once per test with a fresh directory; `persistent` says a second call
 * with the same directory opens what the first one stored. The embedder is deterministic (a
 * hashed bag of words) so vector ranking is predictable; a backend that embeds server-side may
 * ignore it, as long as related text still ranks first.
 */

export interface ConformanceEmbedder {
  id: string;
  model: string;
  dims: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface ConformanceFingerprint {
  path: string;
  hash: string;
  mtime: number;
  size: number;
}

export interface ConformanceMemoryChanges {
  removed: string[];
  changed: Array<
    ConformanceFingerprint & {
      chunks: Array<{ text: string; startLine: number; endLine: number; hash: string }>;
    }
  >;
  touched: Array<Omit<ConformanceFingerprint, "hash">>;
}

export interface ConformanceMemoryHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  vectorScore: number;
  textScore: number;
  text: string;
}

/** The MemoryBackend interface of @clawtools/memory, as this suite drives it. */
export interface MemoryBackendUnderTest {
  files(): Promise<ReadonlyMap<string, ConformanceFingerprint>>;
  sync(
    changes: ConformanceMemoryChanges,
    signal?: AbortSignal,
  ): Promise<{ chunks: number; pendingEmbeddings: number }>;
  search(
    query: string,
    options: { maxResults?: number; minScore?: number; mode?: "hybrid" | "vector" | "keyword" },
  ): Promise<{ hits: ConformanceMemoryHit[]; mode: string }>;
  status(): Promise<{ chunks: number; files: number; vector: string }>;
  close(): Promise<void> | void;
}

export interface MemoryBackendUnderTestSetup {
  /** A fresh directory for this test (the same one again when reopening). */
  dir: string;
  embedder: ConformanceEmbedder;
}

export interface MemoryBackendConformanceOptions extends ConformanceOptions {
  /** A backend made again over the same `dir` keeps what was synced (default false). */
  persistent?: boolean;
  /** Makes the per-test directory (default: the caller's factory ignores `dir` and gets ""). */
  tempDir?: () => string;
}

type Factory = (
  setup: MemoryBackendUnderTestSetup,
) => MemoryBackendUnderTest | Promise<MemoryBackendUnderTest>;

/** Words hashed into 32 buckets, normalised: texts sharing words are near, others far. */
export function conformanceEmbedder(): ConformanceEmbedder {
  const dims = 32;
  const one = (text: string) => {
    const v = new Array<number>(dims).fill(0);
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? [])
      v[createHash("sha256").update(word).digest()[0]! % dims]! += 1;
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  return { id: "conformance", model: "bag-of-words", dims, embed: async (texts) => texts.map(one) };
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** A changed file whose chunks are `lines` (line n holds lines[n-1]; empty lines make no chunk). */
export function memoryFile(path: string, lines: string[], mtime = 1_700_000_000_000) {
  const text = lines.join("\n");
  const chunks = lines.flatMap((line, i) =>
    line === "" ? [] : [{ text: line, startLine: i + 1, endLine: i + 1, hash: sha(line) }],
  );
  return { path, hash: sha(text), mtime, size: Buffer.byteLength(text), chunks };
}

const SAMPLE = [
  memoryFile("memory/orchard.md", [
    "The orchard grows apples and pears.",
    "",
    "Harvest of apples starts in September.",
  ]),
  memoryFile("memory/garage.md", ["The garage holds the bicycle and the lawn mower."]),
  memoryFile("MEMORY.md", ["Dana leads the mobile team."]),
];
const none = { removed: [], changed: [], touched: [] };

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (error: unknown) => error as Error,
  );
}

const descending = (hits: ConformanceMemoryHit[]) =>
  hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score);

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

    it("keyword, vector and hybrid search rank the related chunk first, best score first", async () => {
      const { backend } = await seeded();
      for (const mode of ["keyword", "vector", "hybrid"] as const) {
        const found = await backend.search("bicycle lawn mower", { mode });
        expect(found.mode, mode).toBe(mode);
        expect(found.hits[0], mode).toMatchObject({ path: "memory/garage.md", startLine: 1, endLine: 1 });
        expect(found.hits[0]!.text).toBe("The garage holds the bicycle and the lawn mower.");
        expect(descending(found.hits), mode).toBe(true);
        for (const hit of found.hits)
          for (const s of [hit.score, hit.vectorScore, hit.textScore]) expect(Number.isFinite(s)).toBe(true);
      }
      expect(
        (await backend.search("bicycle lawn mower", { mode: "keyword" })).hits[0]!.textScore,
      ).toBeGreaterThan(0);
      expect(
        (await backend.search("bicycle lawn mower", { mode: "vector" })).hits[0]!.vectorScore,
      ).toBeGreaterThan(0);
      // the line of a later chunk is cited, not the file's start
      const harvest = await backend.search("harvest September", { mode: "keyword" });
      expect(harvest.hits[0]).toMatchObject({ path: "memory/orchard.md", startLine: 3, endLine: 3 });
      await backend.close();
    });

    it("maxResults caps the hits and minScore drops weaker ones", async () => {
      const { backend } = await seeded();
      const all = await backend.search("the apples orchard garage Dana", { mode: "hybrid", maxResults: 10 });
      expect(all.hits.length).toBeGreaterThanOrEqual(3);
      expect((await backend.search("the apples orchard garage Dana", { maxResults: 2 })).hits).toHaveLength(
        2,
      );
      const bar = all.hits[1]!.score;
      const strong = await backend.search("the apples orchard garage Dana", {
        maxResults: 10,
        minScore: bar,
      });
      expect(strong.hits.length).toBeGreaterThan(0);
      expect(strong.hits.every((h) => h.score >= bar)).toBe(true);
      expect(strong.hits.length).toBe(all.hits.filter((h) => h.score >= bar).length);
      expect((await backend.search("the apples", { minScore: 1e9 })).hits).toEqual([]);
      expect((await backend.search("zebra quokka", { mode: "keyword" })).hits).toEqual([]);
      await backend.close();
    });

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
