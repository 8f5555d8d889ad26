import { type EmbeddingProvider, normalize } from "./types.js";

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

/** FNV-1a over UTF-16 units: a cheap stable hash of a feature into [0, dims) with a sign (the hashing trick). */
function bucket(feature: string, dims: number): [number, number] {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h >>>= 0;
  return [h % dims, (h >>> 31) & 1 ? 1 : -1];
}

/**
 * A deterministic local embedder: hashed word, word-pair and character-trigram features,
 * L2-normalised. No network, no model download; trigrams make "deploying" and "deployment" close.
 */
export function createLocalEmbedder(options: { dims?: number } = {}): EmbeddingProvider {
  const dims = options.dims ?? 256;
  const cache = new Map<string, [number, number]>();
  const hashed = (feature: string) => {
    let hit = cache.get(feature);
    if (!hit) {
      hit = bucket(feature, dims);
      if (cache.size < 200_000) cache.set(feature, hit);
    }
    return hit;
  };
  const embedOne = (text: string): number[] => {
    const v = new Array<number>(dims).fill(0);
    const words = tokens(text);
    const add = (feature: string, weight: number) => {
      const [i, sign] = hashed(feature);
      v[i]! += sign * weight;
    };
    words.forEach((w, k) => {
      add(`w:${w}`, 1);
      if (k > 0) add(`b:${words[k - 1]} ${w}`, 0.5);
      const padded = ` ${w} `;
      for (let c = 0; c + 3 <= padded.length; c++) add(`c:${padded.slice(c, c + 3)}`, 0.35);
    });
    return normalize(v);
  };
  return {
    id: "local",
    model: `hashing-${dims}`,
    dims,
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
