import { describe, expect, it } from "vitest";
import { createLocalEmbedder } from "../src/embed/local.js";
import { createKernel, simdAvailable } from "../src/store/code-kernel.js";
import { VectorIndex } from "../src/store/vector-index.js";

function rng(seed: number) {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296 - 0.5;
  };
}

function unitVectors(n: number, dims: number, seed: number): Float32Array[] {
  const next = rng(seed);
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dims }, next);
    let norm = 0;
    for (const x of v) norm += x * x;
    return v.map((x) => x / Math.sqrt(norm));
  });
}

function exactTop(vectors: Map<number, Float32Array>, q: Float32Array, k: number): number[] {
  const scored: Array<{ id: number; s: number }> = [];
  for (const [id, v] of vectors) {
    let s = 0;
    for (let j = 0; j < v.length; j++) s += v[j]! * q[j]!;
    scored.push({ id, s });
  }
  scored.sort((a, b) => b.s - a.s || a.id - b.id);
  return scored.slice(0, k).map((r) => r.id);
}

describe("VectorIndex (8-bit SIMD first pass, exact re-rank)", () => {
  it("recall@10 is at least 0.95 of the exact scan on a seeded random set", { timeout: 120_000 }, () => {
    for (const dims of [256, 384]) {
      const vectors = new Map(unitVectors(10_000, dims, 7).map((v, i) => [i + 1, v] as const));
      const index = new VectorIndex(dims);
      for (const [id, v] of vectors) index.set(id, v);
      let found = 0;
      const queries = unitVectors(20, dims, 99);
      for (const q of queries) {
        const truth = new Set(exactTop(vectors, q, 10));
        found += index.search(q, 10).filter((n) => truth.has(n.id)).length;
      }
      expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
    }
  });

  it("recall@10 is at least 0.95 on the local embedder's vectors of Zipf-like notes (near-ties at rank 10)", {
    timeout: 120_000,
  }, async () => {
    const next = rng(42);
    const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
    const note = () =>
      Array.from({ length: 120 }, () => vocab[Math.floor(vocab.length * (next() + 0.5) ** 2.5)]).join(" ");
    const embedder = createLocalEmbedder();
    const vectors = new Map(
      (await embedder.embed(Array.from({ length: 8000 }, note))).map(
        (v, i) => [i, Float32Array.from(v)] as const,
      ),
    );
    const index = new VectorIndex(embedder.dims);
    for (const [id, v] of vectors) index.set(id, v);
    const queries = await embedder.embed(
      Array.from({ length: 30 }, () => `${note().split(" ").slice(0, 3).join(" ")}`),
    );
    let found = 0;
    for (const q of queries) {
      const qv = Float32Array.from(q);
      const truth = new Set(exactTop(vectors, qv, 10));
      found += index.search(qv, 10).filter((n) => truth.has(n.id)).length;
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  it("scores are exact cosines, and updates and deletes keep the packed lanes consistent", () => {
    const dims = 64;
    const all = unitVectors(3_000, dims, 3);
    const index = new VectorIndex(dims);
    const live = new Map<number, Float32Array>();
    all.forEach((v, i) => {
      index.set(i, v);
      live.set(i, v);
    });
    // delete a third (the last slot moves into each hole), overwrite another third
    for (let i = 0; i < 3_000; i += 3) {
      index.delete(i);
      live.delete(i);
    }
    const fresh = unitVectors(1_000, dims, 11);
    for (let i = 1, f = 0; i < 3_000; i += 3, f++) {
      index.set(i, fresh[f]!);
      live.set(i, fresh[f]!);
    }
    expect(index.size).toBe(live.size);
    for (const q of unitVectors(10, dims, 5)) {
      const got = index.search(q, 5);
      expect(got.map((n) => n.id)).toEqual(exactTop(live, q, 5));
      const v = live.get(got[0]!.id)!;
      expect(got[0]!.score).toBeCloseTo(
        v.reduce((s, x, j) => s + x * q[j]!, 0),
        5,
      );
    }
    expect(index.search(all[0]!, 3).map((n) => n.id)).not.toContain(0);
  });

  it("refuses vectors of the wrong size", () => {
    const index = new VectorIndex(4);
    expect(() => index.set(1, [1, 0, 0])).toThrow(/3 dimensions, the index 4/);
    expect(() => index.search([1, 0], 1)).toThrow(/query has 2 dimensions/);
    expect(() => new VectorIndex(0)).toThrow(/positive integer/);
  });

  it("the SIMD kernel and the plain JavaScript loop give the same integer sums and rankings", () => {
    expect(simdAvailable()).toBe(true);
    for (const dims of [1, 7, 16, 17, 256, 300]) {
      const simd = createKernel(dims);
      const plain = createKernel(dims, { plain: true });
      for (const k of [simd, plain]) {
        k.reserve(3);
        k.reserve(500); // growing keeps what was written
      }
      const width = simd.query.length;
      expect(plain.query.length).toBe(width);
      for (let j = 0; j < dims; j++) simd.query[j] = plain.query[j] = ((j * 7919) % 255) - 127;
      for (let i = 0; i < 500; i++)
        for (let j = 0; j < dims; j++)
          simd.codes[i * width + j] = plain.codes[i * width + j] = ((i * 31 + j * 17) % 255) - 127;
      const a = Array.from(simd.scores(500));
      expect(a).toEqual(Array.from(plain.scores(500)));
      let expected = 0;
      for (let j = 0; j < dims; j++)
        expected += (((9 * 31 + j * 17) % 255) - 127) * (((j * 7919) % 255) - 127);
      expect(a[9]).toBe(expected);
    }
    const vectors = unitVectors(2_000, 96, 17);
    const fast = new VectorIndex(96);
    const slow = new VectorIndex(96, { plain: true });
    vectors.forEach((v, i) => {
      fast.set(i, v);
      slow.set(i, v);
    });
    for (const q of unitVectors(5, 96, 23)) expect(fast.search(q, 10)).toEqual(slow.search(q, 10));
  });
});
