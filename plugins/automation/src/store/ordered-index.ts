/**
 * Job ids kept in list order (next run, jobs without one last, then id) as a list of small sorted
 * blocks: an insert or a delete moves at most one block's entries, and a page is read by skipping
 * whole blocks, so listing 100 jobs does not copy or sort the store.
 */
export interface OrderKey {
  id: string;
  /** Next run; Infinity when there is none. */
  at: number;
}

const BLOCK = 512;

function compare(a: OrderKey, b: OrderKey): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The first index in `list` whose key is not below `key`. */
function lowerBound(list: OrderKey[], key: OrderKey): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(list[mid] as OrderKey, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class OrderedIndex {
  private blocks: OrderKey[][] = [];
  private readonly keys = new Map<string, OrderKey>();

  get size(): number {
    return this.keys.size;
  }

  /** Replaces the contents with these ids and next runs: one sort, not one insert each (a store's load). */
  reset(entries: Iterable<{ id: string; at: number | undefined }>): void {
    this.keys.clear();
    for (const entry of entries)
      this.keys.set(entry.id, { id: entry.id, at: entry.at ?? Number.POSITIVE_INFINITY });
    const sorted = [...this.keys.values()].sort(compare);
    this.blocks = [];
    for (let i = 0; i < sorted.length; i += BLOCK) this.blocks.push(sorted.slice(i, i + BLOCK));
  }

  /** Places the id at `at` (undefined: after every job with a next run); moves it when it was there already. */
  set(id: string, at: number | undefined): void {
    const key: OrderKey = { id, at: at ?? Number.POSITIVE_INFINITY };
    const old = this.keys.get(id);
    if (old && old.at === key.at) return;
    if (old) this.remove(old);
    this.keys.set(id, key);
    this.insert(key);
  }

  delete(id: string): void {
    const old = this.keys.get(id);
    if (!old) return;
    this.keys.delete(id);
    this.remove(old);
  }

  /** The ids from `offset` on, at most `limit` of them. */
  slice(offset: number, limit: number): string[] {
    const out: string[] = [];
    let skip = offset;
    for (const block of this.blocks) {
      if (skip >= block.length) {
        skip -= block.length;
        continue;
      }
      for (let i = skip; i < block.length && out.length < limit; i++) out.push((block[i] as OrderKey).id);
      skip = 0;
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The block a key belongs in: the first whose last key is not below it (else the last block). */
  private blockFor(key: OrderKey): number {
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const block = this.blocks[mid] as OrderKey[];
      if (compare(block[block.length - 1] as OrderKey, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(key: OrderKey): void {
    if (this.blocks.length === 0) {
      this.blocks.push([key]);
      return;
    }
    const b = this.blockFor(key);
    const block = this.blocks[b] as OrderKey[];
    block.splice(lowerBound(block, key), 0, key);
    if (block.length > 2 * BLOCK) this.blocks.splice(b, 1, block.slice(0, BLOCK), block.slice(BLOCK));
  }

  private remove(key: OrderKey): void {
    if (this.blocks.length === 0) return;
    const b = this.blockFor(key);
    const block = this.blocks[b] as OrderKey[];
    const i = lowerBound(block, key);
    if (i < block.length && compare(block[i] as OrderKey, key) === 0) block.splice(i, 1);
    if (block.length === 0) this.blocks.splice(b, 1);
  }
}
