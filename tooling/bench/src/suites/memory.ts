/**
 * Memory: retrieval quality on a kept corpus (recall@5 and MRR for keyword-only, vector-only
 * and hybrid; with temporal decay and MMR off, and with the defaults as of a fixed day), then
 * speed over 50,000 chunks (CLAWTOOLS_BENCH_MEMORY_FILES × 10 when set): full build rate, query
 * latency p50/p95 of the default (quantized KNN) beside sqlite-vec's exact KNN on the same file,
 * taking turns, the quantized search's recall@10 against that exact search, and an incremental
 * re-index after one file of 5,000 changes against a full rebuild.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalEmbedder, MemoryIndex, noteDate, type SearchOptions } from "@clawtools/memory";
import { type BenchRow, type BenchSuite, percentile } from "../harness.js";

const corpusFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/memory-eval/corpus.json",
);

function writeWorkspace(notes: Array<{ path: string; content: string }>): string {
  const ws = mkdtempSync(path.join(tmpdir(), "clawtools-bench-mem-"));
  for (const note of notes) {
    mkdirSync(path.dirname(path.join(ws, note.path)), { recursive: true });
    writeFileSync(path.join(ws, note.path), note.content);
  }
  return ws;
}

// A 4,000-word synthetic vocabulary with a Zipf-like draw, so term frequencies look like prose.
const SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gi ho ju ly pa qu re so tu".split(" ");
const VOCAB = Array.from({ length: 4000 }, (_, i) => {
  let word = "";
  for (let n = i + 7; word.length < 6 || n > 0; n = Math.floor(n / SYLLABLES.length))
    word += SYLLABLES[n % SYLLABLES.length];
  return word;
});

function rng(seed: number) {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function syntheticFile(i: number): string {
  const next = rng(i * 7919 + 1);
  const sections: string[] = [];
  for (let s = 0; s < 10; s++) {
    const words = Array.from({ length: 180 }, () => VOCAB[Math.floor(VOCAB.length * next() ** 2.5)]);
    sections.push(`## Note ${i}.${s}\n\n${words.join(" ")} marker${i}x${s}.`);
  }
  return `${sections.join("\n\n")}\n`;
}

function filesWanted(): number {
  const raw = process.env.CLAWTOOLS_BENCH_MEMORY_FILES;
  if (raw === undefined || raw === "") return 5000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 2 || n > 100_000)
    throw new Error(
      `CLAWTOOLS_BENCH_MEMORY_FILES must be an integer from 2 to 100000, got ${JSON.stringify(raw)}`,
    );
  return n;
}

export default {
  name: "memory",
  async run() {
    const rows: BenchRow[] = [];
    const loadAtStart = loadavg()[0] ?? 0;
    const corpus = JSON.parse(readFileSync(corpusFile, "utf8")) as {
      notes: Array<{ path: string; content: string }>;
      queries: Array<{ query: string; answers: string[] }>;
    };
    const ws = writeWorkspace(corpus.notes);
    try {
      const index = new MemoryIndex({
        workspaceDir: ws,
        dbPath: path.join(ws, ".db", "eval.sqlite"),
        embedder: createLocalEmbedder(),
      });
      await index.sync();
      // The corpus's daily notes are dated (memory/daily/2026-01-01.md …): with OpenClaw 9.6's
      // default temporal decay their weight depends on "now", so the defaults are measured as of
      // the day after the newest note (the same every run), beside the ranking without decay
      // and MMR, which is what the runs before 2026-12-06 measured (both were off by default).
      const newest = Math.max(...corpus.notes.map((n) => noteDate(n.path) ?? Number.NEGATIVE_INFINITY));
      const nowMs = newest + 86_400_000;
      const asOf = new Date(nowMs).toISOString().slice(0, 10);
      const off = { temporalDecay: { enabled: false }, mmr: { enabled: false } };
      const variants = {
        plain: off,
        defaults: { nowMs },
        decayOnly: { nowMs, mmr: { enabled: false } },
        mmrOnly: { temporalDecay: { enabled: false } },
      } satisfies Record<string, SearchOptions>;
      const modes = ["keyword", "vector", "hybrid"] as const;
      const quality: Record<string, { recall: number; mrr: number }> = {};
      for (const [variant, options] of Object.entries(variants)) {
        for (const mode of modes) {
          let hits = 0;
          let rr = 0;
          for (const q of corpus.queries) {
            const out = await index.search(q.query, { maxResults: 5, minScore: 0, mode, ...options });
            const paths = [...new Set(out.hits.map((h) => h.path))];
            const rank = paths.findIndex((p) => q.answers.includes(p));
            if (rank !== -1) {
              hits++;
              rr += 1 / (rank + 1);
            }
          }
          quality[`${variant} ${mode}`] = {
            recall: hits / corpus.queries.length,
            mrr: rr / corpus.queries.length,
          };
        }
      }
      index.close();
      const q = (key: string) => quality[key]!;
      const size = `${corpus.notes.length} notes, ${corpus.queries.length} queries`;
      const plainKeyword = `recall@5 keyword-only, decay and MMR off (${size})`;
      rows.push({ name: plainKeyword, value: q("plain keyword").recall, unit: "" });
      rows.push({
        name: "recall@5 vector-only, decay and MMR off",
        value: q("plain vector").recall,
        unit: "",
      });
      rows.push({
        name: "recall@5 hybrid, decay and MMR off",
        value: q("plain hybrid").recall,
        unit: "",
        baseline: plainKeyword,
        target: "> keyword-only",
        met: q("plain hybrid").recall > q("plain keyword").recall,
      });
      rows.push({ name: "MRR keyword-only, decay and MMR off", value: q("plain keyword").mrr, unit: "" });
      rows.push({ name: "MRR vector-only, decay and MMR off", value: q("plain vector").mrr, unit: "" });
      rows.push({
        name: "MRR hybrid, decay and MMR off",
        value: q("plain hybrid").mrr,
        unit: "",
        baseline: "MRR keyword-only, decay and MMR off",
      });
      const defaultsKeyword = `recall@5 keyword-only, defaults (OpenClaw 9.6: decay 30 d, MMR λ 0.7) as of ${asOf}`;
      rows.push({ name: defaultsKeyword, value: q("defaults keyword").recall, unit: "" });
      rows.push({ name: "recall@5 vector-only, defaults", value: q("defaults vector").recall, unit: "" });
      rows.push({
        name: "recall@5 hybrid, defaults",
        value: q("defaults hybrid").recall,
        unit: "",
        baseline: defaultsKeyword,
      });
      rows.push({ name: "MRR hybrid, defaults", value: q("defaults hybrid").mrr, unit: "" });
      rows.push({
        name: `recall@5 hybrid, decay only (as of ${asOf})`,
        value: q("decayOnly hybrid").recall,
        unit: "",
      });
      rows.push({ name: "recall@5 hybrid, MMR only", value: q("mmrOnly hybrid").recall, unit: "" });
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }

    // CLAWTOOLS_BENCH_MEMORY_FILES shrinks the speed part while iterating (10 chunks a file)
    const FILES = filesWanted();
    const big = writeWorkspace(
      Array.from({ length: FILES }, (_, i) => ({ path: `memory/n${i}.md`, content: syntheticFile(i) })),
    );
    try {
      const dbPath = path.join(big, ".db", "big.sqlite");
      const embedder = createLocalEmbedder();
      let start = performance.now();
      const index = new MemoryIndex({ workspaceDir: big, dbPath, embedder });
      const report = await index.sync();
      const fullMs = performance.now() - start;
      const fullName = `full build, ${report.chunks} chunks from ${FILES} files`;
      rows.push({ name: fullName, value: fullMs, unit: "ms" });
      const rate = report.chunks / (fullMs / 1000);
      rows.push({
        name: "index build rate (list, chunk, embed locally, write)",
        value: rate,
        unit: "chunks/s",
        target: "≥ 2,000 chunks/s",
        met: rate >= 2000,
      });
      // the same file opened with sqlite-vec (exact KNN in C): the floor the default is held to
      start = performance.now();
      const exact = new MemoryIndex({ workspaceDir: big, dbPath, embedder, useSqliteVec: true });
      await exact.search("warm up");
      const vecFill = performance.now() - start;
      start = performance.now();
      await index.search("warm up");
      rows.push({
        name: `first search after opening: load ${report.chunks} vectors into the quantized index`,
        value: performance.now() - start,
        unit: "ms",
      });
      rows.push({
        name: "(for comparison) fill sqlite-vec's table and search once",
        value: vecFill,
        unit: "ms",
      });
      const latencies: number[] = [];
      const vecLatencies: number[] = [];
      let found = 0;
      const RECALL_QUERIES = 50;
      for (let i = 0; i < 200; i++) {
        const query = `${VOCAB[(i * 37) % 400]} ${VOCAB[(i * 11) % 2000]} marker${i}x3`;
        // take turns, the sides in alternating order, so load shifts hit both alike
        const sides = i % 2 ? ([index, exact] as const) : ([exact, index] as const);
        for (const side of sides) {
          const t = performance.now();
          await side.search(query, { maxResults: 6 });
          (side === index ? latencies : vecLatencies).push(performance.now() - t);
        }
        if (i < RECALL_QUERIES) {
          const top = async (side: MemoryIndex) =>
            (await side.search(query, { maxResults: 10, minScore: 0, mode: "vector" })).hits.map(
              (h) => `${h.path}#${h.startLine}`,
            );
          const truth = new Set(await top(exact));
          found += (await top(index)).filter((k) => truth.has(k)).length;
        }
      }
      const vecP50 = percentile(vecLatencies, 50);
      const vecName = `hybrid query p50 over ${report.chunks} chunks, sqlite-vec KNN (same file)`;
      rows.push({ name: vecName, value: vecP50, unit: "ms" });
      const p50 = percentile(latencies, 50);
      rows.push({
        name: `hybrid query p50 over ${report.chunks} chunks, default (8-bit codes, SIMD first pass, exact re-rank)`,
        value: p50,
        unit: "ms",
        baseline: vecName,
        target: "< 10 ms",
        met: p50 < 10,
      });
      rows.push({ name: "hybrid query p95, sqlite-vec", value: percentile(vecLatencies, 95), unit: "ms" });
      rows.push({ name: "hybrid query p95, default", value: percentile(latencies, 95), unit: "ms" });
      const recall = found / (RECALL_QUERIES * 10);
      rows.push({
        name: `recall@10 of the default vector search against sqlite-vec's exact KNN (${RECALL_QUERIES} queries)`,
        value: recall,
        unit: "",
        target: "≥ 0.95",
        met: recall >= 0.95,
      });
      exact.close();
      start = performance.now();
      await index.sync();
      rows.push({
        name: `sync check with nothing changed (${FILES} files)`,
        value: performance.now() - start,
        unit: "ms",
      });
      const changed = path.join(big, "memory", `n${Math.floor(FILES / 10)}.md`);
      writeFileSync(changed, syntheticFile(FILES));
      utimesSync(changed, new Date(), new Date(Date.now() + 10_000));
      start = performance.now();
      const incremental = await index.sync();
      const incMs = performance.now() - start;
      rows.push({
        name: `incremental re-index after 1 of ${FILES} files changed (${incremental.updated} updated)`,
        value: incMs,
        unit: "ms",
        baseline: fullName,
        target: "< 5% of full",
        met: incMs < 0.05 * fullMs,
      });
      index.close();
      // opening checks the file's header (foreign, truncated) without scanning every page
      start = performance.now();
      const reopened = new MemoryIndex({ workspaceDir: big, dbPath, embedder });
      rows.push({
        name: `open an existing index of ${report.chunks} chunks (header check)`,
        value: performance.now() - start,
        unit: "ms",
      });
      reopened.close();
      // a corrupt file is moved aside and rebuilt from the markdown files within the call
      writeFileSync(dbPath, randomBytes(statSync(dbPath).size));
      start = performance.now();
      const healed = new MemoryIndex({ workspaceDir: big, dbPath, embedder, onRecovery: () => {} });
      const rebuilt = await healed.sync();
      rows.push({
        name: `rebuild after a corrupt index (random bytes), ${rebuilt.chunks} chunks`,
        value: performance.now() - start,
        unit: "ms",
        baseline: fullName,
      });
      healed.close();
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
    return {
      title: "Memory: retrieval quality and index speed",
      rows,
      notes: [
        "Quality uses the kept corpus tooling/bench/fixtures/memory-eval/corpus.json (generated by generate.py next to it) with the default local embedder; queries use other word forms than the notes.",
        "Quality is measured twice. 'Decay and MMR off' is the retrieval itself (FTS5, vectors, their merge), as every run before 2026-12-06 measured it. 'Defaults' adds what OpenClaw 9.6 does after it and clawtools does by default since then: temporal decay (30-day half-life) and MMR (λ 0.7). 150 of the corpus's 225 notes are daily notes spread over January to June 2026 and 60 of its 74 answers are among them, while its 75 topic notes never age: a 30-day half-life weighs the oldest daily note about 2^-5 against the newest and against every topic note, so topic notes crowd out the (old) answers. That is the corpus (questions about old notes as often as new ones) meeting the decay, not a retrieval fault; 'now' is pinned to the day after the newest note so the row does not drift with the calendar.",
        "Query latency is index.search (embedding the query, KNN, FTS5, merge); the tool also runs a sync check first, reported separately. The default finds nearest neighbours with a first pass over 8-bit codes (integer dot products in WebAssembly SIMD, eight multiply-adds per instruction) and an exact re-rank of the best 256; sqlite-vec is measured on the same file in the same loop, the two taking turns.",
        `Load average (1 min) when the suite started: ${loadAtStart.toFixed(1)}, on ${cpus().length} cores; at its end: ${(loadavg()[0] ?? 0).toFixed(1)}. Under load the absolute times grow; the ratio to sqlite-vec, measured in turns, is what carries over.`,
        "Since the containment work, the sync check lists memory/ from a directory descriptor opened by core's containment walk and reads changed files through it; opening an index checks its header only, and corrupt pages met later are healed in the call.",
      ],
    };
  },
} satisfies BenchSuite;
