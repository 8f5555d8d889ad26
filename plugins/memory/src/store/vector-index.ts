import { type CodeKernel, createKernel } from "./code-kernel.js";

/**
 * Nearest neighbours over unit vectors without a scan of full-precision floats: every vector is
 * kept twice, exactly (a contiguous Float32Array) and as 8-bit codes (−127..127, scaled per
 * vector) held as Int16 in a WebAssembly SIMD kernel's memory. A query is scored against the
 * codes (integer dot products, eight per instruction), then the best few hundred are re-ranked
 * exactly.
 */
const CODE_MAX = 127;
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
  private readonly kernel: CodeKernel;
  /** Int16 per vector in the kernel's memory (dims rounded up for the SIMD loop). */
  private readonly width: number;
  private readonly slots = new Map<number, number>();
  private count = 0;
  private approx = new Float32Array(0);
  private scratch = new Float32Array(0);

  /** `plain` scores the codes in JavaScript instead of WebAssembly SIMD (tests compare the two). */
  constructor(
    readonly dims: number,
    options: { plain?: boolean } = {},
  ) {
    if (!Number.isInteger(dims) || dims < 1)
      throw new Error(`vector dimensions must be a positive integer, got ${dims}`);
    this.kernel = createKernel(dims, options);
    this.width = this.kernel.query.length;
  }

  get size(): number {
    return this.count;
  }

  /** Makes room for `total` vectors at once (a load of known size grows the arrays once). */
  reserve(total: number): void {
    if (total <= this.ids.length) return;
    const grown = <T extends Float64Array | Float32Array>(old: T, next: T) => {
      next.set(old);
      return next;
    };
    this.ids = grown(this.ids, new Float64Array(total));
    this.scales = grown(this.scales, new Float32Array(total));
    this.exact = grown(this.exact, new Float32Array(total * this.dims));
    this.kernel.reserve(total);
  }

  set(id: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dims)
      throw new Error(`vector has ${vector.length} dimensions, the index ${this.dims}`);
    let slot = this.slots.get(id);
    if (slot === undefined) {
      if (this.count === this.ids.length) this.reserve(Math.max(1024, Math.ceil(this.count * 1.5)));
      slot = this.count++;
      this.slots.set(id, slot);
      this.ids[slot] = id;
    }
    this.exact.set(vector, slot * this.dims);
    this.encode(slot);
  }

  /** Quantizes slot `slot`'s exact vector into its codes (one typed-array loop, no allocation). */
  private encode(slot: number): void {
    const d = this.dims;
    const { exact } = this;
    const base = slot * d;
    let max = 0;
    for (let j = 0; j < d; j++) {
      const v = Math.abs(exact[base + j]!);
      if (v > max) max = v;
    }
    this.scales[slot] = max / CODE_MAX;
    const codes = this.kernel.codes;
    const row = slot * this.width;
    const inverse = max > 0 ? CODE_MAX / max : 0;
    for (let j = 0; j < d; j++) codes[row + j] = Math.round(exact[base + j]! * inverse);
  }

  /** Removes `id`; the last vector moves into its slot, so the arrays stay dense. */
  delete(id: number): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    const last = this.count - 1;
    this.slots.delete(id);
    if (slot !== last) {
      const lastId = this.ids[last]!;
      this.ids[slot] = lastId;
      this.slots.set(lastId, slot);
      this.exact.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      this.scales[slot] = this.scales[last]!;
      const codes = this.kernel.codes;
      codes.copyWithin(slot * this.width, last * this.width, (last + 1) * this.width);
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
    const inverse = max > 0 ? CODE_MAX / max : 0;
    const qc = this.kernel.query;
    for (let j = 0; j < d; j++) qc[j] = Math.round(q[j]! * inverse);
    const sums = this.kernel.scores(this.count);
    // scratch arrays reused across queries (a query allocates no per-vector memory)
    if (this.approx.length < this.count) {
      this.approx = new Float32Array(this.ids.length);
      this.scratch = new Float32Array(this.ids.length);
    }
    const approx = this.approx.subarray(0, this.count);
    const { scales } = this;
    for (let i = 0; i < approx.length; i++) approx[i] = sums[i]! * scales[i]!;
    const scratch = this.scratch.subarray(0, this.count);
    scratch.set(approx);
    return topSlots(approx, scratch, pool);
  }
}

/** Indexes of the `k` largest values: the k-th largest by quickselect (on `scratch`, a copy), then one pass. */
function topSlots(values: Float32Array, scratch: Float32Array, k: number): number[] {
  const threshold = kthLargest(scratch, k);
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
