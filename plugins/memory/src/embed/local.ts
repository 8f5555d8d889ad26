import type { EmbeddingProvider } from "./types.js";

const STOP = new Set(
  "a an and are as at be by for from has have i in is it its of on or that the this to was were will with".split(
    " ",
  ),
);

function tokens(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFKC")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((t) => !STOP.has(t));
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over UTF-16 units, continued from state `h` (so a feature's prefix is hashed once). */
function fnv(h: number, text: string, start = 0, end = text.length): number {
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

const W = fnv(FNV_OFFSET, "w:");
const B = fnv(FNV_OFFSET, "b:");
const C = fnv(FNV_OFFSET, "c:");

/** A word's features, hashed once per word: its own bucket, its trigrams', and the state a word pair starting with it continues from. */
interface WordFeatures {
  word: number;
  /** Bucket and sign of each trigram, interleaved. */
  trigrams: Int32Array;
  pairPrefix: number;
}

/**
 * A deterministic local embedder: hashed word, word-pair and character-trigram features,
 * L2-normalised. No network, no model download; trigrams make "deploying" and "deployment" close.
 */
export function createLocalEmbedder(options: { dims?: number } = {}): EmbeddingProvider {
  const dims = options.dims ?? 256;
  // the hashing trick: a feature's FNV-1a hash picks the dimension and, by its top bit, the sign
  const slot = (h: number) => (h >>> 0) % dims;
  const sign = (h: number) => ((h >>> 0) >>> 31 ? 1 : -1);
  const cache = new Map<string, WordFeatures>();
  const featuresOf = (w: string): WordFeatures => {
    let hit = cache.get(w);
    if (!hit) {
      const padded = ` ${w} `;
      const trigrams = new Int32Array(2 * Math.max(0, padded.length - 2));
      for (let c = 0; c + 3 <= padded.length; c++) {
        const h = fnv(C, padded, c, c + 3);
        trigrams[2 * c] = slot(h);
        trigrams[2 * c + 1] = sign(h);
      }
      hit = { word: fnv(W, w), trigrams, pairPrefix: fnv(fnv(B, w), " ") };
      if (cache.size < 200_000) cache.set(w, hit);
    }
    return hit;
  };
  // the same features, weights and order of additions as hashing each feature string; sums in
  // one reused Float64Array (doubles, as a number[] holds them), so the vectors are unchanged
  const sums = new Float64Array(dims);
  const embedOne = (text: string): number[] => {
    sums.fill(0);
    let prev: WordFeatures | undefined;
    for (const w of tokens(text)) {
      const f = featuresOf(w);
      sums[slot(f.word)]! += sign(f.word) * 1;
      if (prev) {
        const pair = fnv(prev.pairPrefix, w);
        sums[slot(pair)]! += sign(pair) * 0.5;
      }
      const trigrams = f.trigrams;
      for (let t = 0; t < trigrams.length; t += 2) sums[trigrams[t]!]! += trigrams[t + 1]! * 0.35;
      prev = f;
    }
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += sums[j]! * sums[j]!;
    norm = Math.sqrt(norm);
    const out = new Array<number>(dims);
    for (let j = 0; j < dims; j++) out[j] = norm > 0 ? sums[j]! / norm : sums[j]!;
    return out;
  };
  return {
    id: "local",
    model: `hashing-${dims}`,
    dims,
    // computing a vector takes microseconds: cheaper than a cache lookup and write
    cache: false,
    async embed(texts) {
      const out: number[][] = [];
      for (const [n, text] of texts.entries()) {
        // bounded slices of CPU: other calls run every 32 texts
        if (n > 0 && n % 32 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        out.push(embedOne(text));
      }
      return out;
    },
  };
}
