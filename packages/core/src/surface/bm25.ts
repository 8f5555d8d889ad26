import { terms } from "./words.js";

/** Okapi BM25 parameters (the usual defaults). */
const K1 = 1.2;
const B = 0.75;

type Doc = { length: number; counts: Map<string, number> };

/**
 * An Okapi BM25 index over a fixed list of documents: built once per catalog snapshot, scored per
 * query in time linear in the query's terms' postings.
 */
export class Bm25Index {
  private readonly docs: Doc[];
  private readonly postings = new Map<string, number[]>();
  private readonly averageLength: number;

  constructor(texts: readonly string[]) {
    this.docs = texts.map((text, index) => {
      const counts = new Map<string, number>();
      const list = terms(text);
      for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const term of counts.keys()) {
        const posting = this.postings.get(term);
        if (posting) posting.push(index);
        else this.postings.set(term, [index]);
      }
      return { length: list.length, counts };
    });
    const total = this.docs.reduce((sum, doc) => sum + doc.length, 0);
    this.averageLength = this.docs.length ? total / this.docs.length || 1 : 1;
  }

  /** Scores by document index for the weighted query terms; documents matching nothing are absent. */
  score(query: ReadonlyMap<string, number>): Map<number, number> {
    const scores = new Map<number, number>();
    const n = this.docs.length;
    for (const [term, weight] of query) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.length + 0.5) / (posting.length + 0.5));
      for (const index of posting) {
        const doc = this.docs[index]!;
        const tf = doc.counts.get(term) ?? 0;
        const part = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / this.averageLength));
        scores.set(index, (scores.get(index) ?? 0) + weight * part);
      }
    }
    return scores;
  }
}
