/**
 * Nearest neighbours over unit vectors without a scan of full-precision floats: every vector is
 * kept twice, exactly (a contiguous Float32Array) and as 5-bit codes (−15..15, scaled per vector)
 * packed three vectors to a float64 lane word, so one multiply-add scores three vectors at once.
 * A query is scored against the codes, then the best few hundred are re-ranked exactly.
 *
 * Why three lanes are exact: codes and query codes are ≤ 15 in magnitude, so one lane's dot over
 * a block of 128 dimensions stays below 2^15 (15·15·128 = 28,800) and three lanes at 2^16
 * spacing stay below 2^53, where doubles are still integers; the lanes are split after each block.
 */
const CODE_MAX = 15;
const QUERY_MAX = 15;
const LANES = 3;
const LANE = 2 ** 16;
const LANE2 = LANE * LANE;
/** Dimensions summed before the lanes are split (keeps each lane below 2^15). */
const BLOCK = 128;
/** Candidates re-ranked exactly (recall@10 ≥ 0.95 of the exact scan needs far fewer). */
export const RERANK = 256;

export interface Neighbour {
  id: number;
  score: number;
}

export class VectorIndex {
  private ids = new Float64Array(0);
  private exact = new Float32Array(0);
  private scales = new Float32Array(0);
  private codes = new Float64Array(0);
  private readonly slots = new Map<number, number>();
  private count = 0;

  constructor(readonly dims: number) {
    if (!Number.isInteger(dims) || dims < 1)
      throw new Error(`vector dimensions must be a positive integer, got ${dims}`);
  }

  get size(): number {
    return this.count;
  }

  private grow(min: number): void {
    const cap = Math.max(min, Math.ceil(this.ids.length * 1.5), 1024);
    const groups = Math.ceil(cap / LANES);
    const copy = <T extends Float64Array | Float32Array>(old: T, make: (n: number) => T, n: number) => {
      const next = make(n);
      next.set(old);
      return next;
    };
    this.ids = copy(this.ids, (n) => new Float64Array(n), cap);
    this.scales = copy(this.scales, (n) => new Float32Array(n), cap);
    this.exact = copy(this.exact, (n) => new Float32Array(n), cap * this.dims);
    this.codes = copy(this.codes, (n) => new Float64Array(n), groups * this.dims);
  }

  /** Writes (or clears, with `sign` −1) the codes of `vector` into slot `slot`'s lane. */
  private encode(slot: number, sign: 1 | -1): void {
    const d = this.dims;
    const base = slot * d;
    const scale = this.scales[slot]!;
    if (scale === 0) return; // a zero vector has all-zero codes
    const inverse = 1 / scale;
    const weight = sign * (slot % LANES === 0 ? 1 : slot % LANES === 1 ? LANE : LANE2);
    const row = Math.floor(slot / LANES) * d;
    for (let j = 0; j < d; j++) this.codes[row + j]! += Math.round(this.exact[base + j]! * inverse) * weight;
  }

  set(id: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dims)
      throw new Error(`vector has ${vector.length} dimensions, the index ${this.dims}`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      if (this.count === this.ids.length) this.grow(this.count + 1);
      slot = this.count++;
      this.slots.set(id, slot);
      this.ids[slot] = id;
    } else this.encode(slot, -1);
    let max = 0;
    for (let j = 0; j < this.dims; j++) {
      const v = vector[j]!;
      this.exact[slot * this.dims + j] = v;
      if (Math.abs(v) > max) max = Math.abs(v);
    }
    this.scales[slot] = max / CODE_MAX;
    this.encode(slot, 1);
  }

  /** Removes `id`; the last vector moves into its slot, so the arrays stay dense. */
  delete(id: number): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.count - 1;
    this.encode(slot, -1);
    this.slots.delete(id);
    if (slot !== last) {
      const lastId = this.ids[last]!;
      const vector = this.exact.slice(last * this.dims, (last + 1) * this.dims);
      this.encode(last, -1);
      this.ids[slot] = lastId;
      this.slots.set(lastId, slot);
      this.exact.set(vector, slot * this.dims);
      this.scales[slot] = this.scales[last]!;
      this.encode(slot, 1);
    }
    this.scales[last] = 0;
    this.count = last;
  }

  /** The exact dot product of slot `slot` with `q`. */
  private dot(slot: number, q: Float32Array): number {
    const base = slot * this.dims;
    let sum = 0;
    for (let j = 0; j < this.dims; j++) sum += this.exact[base + j]! * q[j]!;
    return sum;
  }

  /** The `k` nearest ids by cosine (dot product of unit vectors), best first. */
  search(query: ArrayLike<number>, k: number): Neighbour[] {
    if (query.length !== this.dims)
      throw new Error(`query has ${query.length} dimensions, the index ${this.dims}`);
    const q = Float32Array.from(query);
    const n = this.count;
    if (n === 0 || k < 1) return [];
    const pool = Math.min(n, Math.max(RERANK, k));
    const candidates = pool === n ? Array.from({ length: n }, (_, i) => i) : this.firstPass(q, pool);
    const out = candidates.map((slot) => ({ id: this.ids[slot]!, score: this.dot(slot, q) }));
    out.sort((a, b) => b.score - a.score || a.id - b.id);
    return out.slice(0, k);
  }

  /** Slots of the `pool` best approximate scores. */
  private firstPass(q: Float32Array, pool: number): number[] {
    const d = this.dims;
    let max = 0;
    for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(q[j]!));
    const qScale = max / QUERY_MAX || 1;
    const qc = new Float64Array(d);
    for (let j = 0; j < d; j++) qc[j] = Math.round(q[j]! / qScale);
    const approx = new Float32Array(this.count);
    const groups = Math.ceil(this.count / LANES);
    const { codes, scales } = this;
    for (let g = 0, row = 0; g < groups; g++, row += d) {
      let a = 0;
      let b = 0;
      let c = 0;
      for (let start = 0; start < d; start += BLOCK) {
        const end = Math.min(d, start + BLOCK);
        let s0 = 0;
        let s1 = 0;
        let j = start;
        for (; j + 1 < end; j += 2) {
          s0 += codes[row + j]! * qc[j]!;
          s1 += codes[row + j + 1]! * qc[j + 1]!;
        }
        if (j < end) s0 += codes[row + j]! * qc[j]!;
        // split the three lanes of this block (each a signed integer below 2^15)
        const sum = s0 + s1;
        const hi = Math.round(sum / LANE2);
        const rest = sum - hi * LANE2;
        const mid = Math.round(rest / LANE);
        a += rest - mid * LANE;
        b += mid;
        c += hi;
      }
      const i = g * LANES;
      approx[i] = a * scales[i]!;
      if (i + 1 < this.count) approx[i + 1] = b * scales[i + 1]!;
      if (i + 2 < this.count) approx[i + 2] = c * scales[i + 2]!;
    }
    return topSlots(approx, pool);
  }
}

/** Indexes of the `k` largest values: the k-th largest by quickselect, then one pass. */
function topSlots(values: Float32Array, k: number): number[] {
  const threshold = kthLargest(Float32Array.from(values), k);
  const above: number[] = [];
  const equal: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i]! > threshold) above.push(i);
    else if (values[i] === threshold) equal.push(i);
  }
  return above.concat(equal.slice(0, k - above.length));
}

/** Hoare's quickselect (in place, middle pivot): the k-th largest of `a`. */
function kthLargest(a: Float32Array, k: number): number {
  const target = a.length - k;
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return a[target]!;
}
