/** Turns texts into vectors. Implementations must return one vector per input, all of `dims` length. */
export interface EmbeddingProvider {
  id: string;
  model: string;
  dims: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /**
   * Whether the index keeps this embedder's vectors in its cache of texts (default true: a
   * remote embedder is slow and costs money). The local embedder says false: computing a vector
   * is cheaper than looking one up and storing it.
   */
  cache?: boolean;
}

export function normalize(vector: number[]): number[] {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  return norm > 0 ? vector.map((v) => v / norm) : vector;
}
