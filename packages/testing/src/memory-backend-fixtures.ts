import type { ConformanceEmbedder, ConformanceMemoryHit } from "./memory-backend-types.js";
import { createHash } from "node:crypto";

// The memory conformance suite's fixtures: a deterministic embedder, sample files, small helpers.

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

export const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** A changed file whose chunks are `lines` (line n holds lines[n-1]; empty lines make no chunk). */
export function memoryFile(path: string, lines: string[], mtime = 1_700_000_000_000) {
  const text = lines.join("\n");
  const chunks = lines.flatMap((line, i) =>
    line === "" ? [] : [{ text: line, startLine: i + 1, endLine: i + 1, hash: sha(line) }],
  );
  return { path, hash: sha(text), mtime, size: Buffer.byteLength(text), chunks };
}

export const SAMPLE = [
  memoryFile("memory/orchard.md", [
    "The orchard grows apples and pears.",
    "",
    "Harvest of apples starts in September.",
  ]),
  memoryFile("memory/garage.md", ["The garage holds the bicycle and the lawn mower."]),
  memoryFile("MEMORY.md", ["Dana leads the mobile team."]),
];
export const none = { removed: [], changed: [], touched: [] };

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)?.slice(0, 200)}`);
    },
    (error: unknown) => error as Error,
  );
}

export const descending = (hits: ConformanceMemoryHit[]) =>
  hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score);
