/**
 * The first pass's inner loop: integer dot products of one query against every stored vector's
 * 16-bit codes. WebAssembly SIMD (`i32x4.dot_i16x8_s`: eight multiply-adds per instruction) where
 * the runtime has it (every Node 20+ on x64 and arm64), else the same integer sums in plain
 * JavaScript. Both give identical results: the sums are exact integers.
 *
 * Memory layout (one instance per index): [query codes][stored codes, `stride` bytes each][sums].
 */
export interface CodeKernel {
  /** The codes of `capacity` vectors (`stride / 2` Int16 each); a new view after each reserve. */
  readonly codes: Int16Array;
  /** The query's codes (`stride / 2` Int16). */
  readonly query: Int16Array;
  /** Makes room for `capacity` vectors, keeping the codes already written. */
  reserve(capacity: number): void;
  /** Integer dot products of the query with the first `count` vectors, one Int32 each. */
  scores(count: number): Int32Array;
}

const PAGE = 65536;

/** The part of the WebAssembly global used here (the Node type definitions in use lack it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

/** Unsigned LEB128, as WebAssembly encodes sizes and counts. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

/**
 * scores(codes, query, out, count, stride): for each of `count` vectors of `stride` bytes from
 * `codes`, out[i] = Σ codes·query; `stride` is a positive multiple of 32 (two v128 per step).
 * Locals: 0 codes, 1 query, 2 out, 3 count, 4 stride, 5 end, 6 offset, 7 accumulator.
 */
function kernelBytes(): Uint8Array {
  const I32 = 0x7f;
  const get = (i: number) => [0x20, i];
  const set = (i: number) => [0x21, i];
  const tee = (i: number) => [0x22, i];
  const add = 0x6a;
  const load = (offset: number) => [0xfd, 0x00, 4, offset]; // v128.load align=16
  const dot = [0xfd, 0xba, 0x01]; // i32x4.dot_i16x8_s
  const add4 = [0xfd, 0xae, 0x01]; // i32x4.add
  const lane = (i: number) => [...get(7), 0xfd, 0x1b, i]; // i32x4.extract_lane
  const step = (offset: number) => [
    ...get(0),
    ...get(6),
    add,
    ...load(offset),
    ...get(1),
    ...get(6),
    add,
    ...load(offset),
    ...dot,
    ...add4,
  ];
  const body = [
    ...[2, 2, I32, 1, 0x7b], // locals: two i32, one v128
    ...[...get(0), ...get(3), ...get(4), 0x6c, add, ...set(5)], // end = codes + count * stride
    ...[0x02, 0x40, ...get(3), 0x45, 0x0d, 0], // block; count == 0 → done
    ...[0x03, 0x40], // loop over vectors
    ...[0xfd, 0x0c, ...new Array(16).fill(0), ...set(7)], // accumulator = 0
    ...[0x41, 0, ...set(6)], // offset = 0
    ...[0x03, 0x40, ...get(7), ...step(0), ...step(16), ...set(7)], // loop over dimensions
    ...[...get(6), 0x41, 32, add, ...tee(6), ...get(4), 0x49, 0x0d, 0, 0x0b],
    ...[...get(2), ...lane(0), ...lane(1), add, ...lane(2), add, ...lane(3), add, 0x36, 2, 0], // out[i]
    ...[...get(2), 0x41, 4, add, ...set(2)],
    ...[...get(0), ...get(4), add, ...tee(0), ...get(5), 0x49, 0x0d, 0, 0x0b], // next vector
    ...[0x0b, 0x0b], // end block, end function
  ];
  const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name("mem"), 2, 0, ...name("scores"), 0, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

let compiled: object | null | undefined;

/** The compiled SIMD module, or null when this runtime cannot run it. */
function simdModule(): object | null {
  if (compiled === undefined) {
    try {
      const bytes = kernelBytes();
      compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** Bytes per vector's codes: `dims` Int16 rounded up to a multiple of 32 bytes. */
export const strideFor = (dims: number) => Math.ceil((dims * 2) / 32) * 32;

class SimdKernel implements CodeKernel {
  codes = new Int16Array(0);
  query = new Int16Array(0);
  private sums = new Int32Array(0);
  private capacity = 0;
  private readonly memory: WasmMemory;
  private readonly run: (codes: number, query: number, out: number, count: number, stride: number) => void;

  constructor(
    module: object,
    private readonly stride: number,
  ) {
    const instance = new (wasm as WasmApi).Instance(module);
    this.memory = instance.exports.mem as WasmMemory;
    this.run = instance.exports.scores as SimdKernel["run"];
    this.reserve(0);
  }

  reserve(capacity: number): void {
    const { stride } = this;
    const need = stride + capacity * stride + capacity * 4;
    const have = this.memory.buffer.byteLength;
    if (need > have) this.memory.grow(Math.ceil((need - have) / PAGE));
    const buffer = this.memory.buffer;
    const kept = this.capacity * stride;
    // the sums follow the codes: growing moves nothing but the (scratch) sums
    this.query = new Int16Array(buffer, 0, stride / 2);
    this.codes = new Int16Array(buffer, stride, (capacity * stride) / 2);
    this.sums = new Int32Array(buffer, stride + capacity * stride, capacity);
    this.codes.fill(0, kept / 2);
    this.capacity = capacity;
  }

  scores(count: number): Int32Array {
    if (count > this.capacity) throw new Error(`scores of ${count} vectors, room for ${this.capacity}`);
    this.run(this.stride, 0, this.stride + this.capacity * this.stride, count, this.stride);
    return this.sums.subarray(0, count);
  }
}

class PlainKernel implements CodeKernel {
  codes = new Int16Array(0);
  query: Int16Array;
  private sums = new Int32Array(0);

  constructor(private readonly stride: number) {
    this.query = new Int16Array(stride / 2);
  }

  reserve(capacity: number): void {
    const codes = new Int16Array((capacity * this.stride) / 2);
    codes.set(this.codes.subarray(0, Math.min(this.codes.length, codes.length)));
    this.codes = codes;
    this.sums = new Int32Array(capacity);
  }

  scores(count: number): Int32Array {
    const { codes, query, sums } = this;
    const width = this.stride / 2;
    for (let i = 0, row = 0; i < count; i++, row += width) {
      let a = 0;
      let b = 0;
      for (let j = 0; j < width; j += 2) {
        a += codes[row + j]! * query[j]!;
        b += codes[row + j + 1]! * query[j + 1]!;
      }
      sums[i] = a + b;
    }
    return sums.subarray(0, count);
  }
}

/** A kernel for vectors of `dims` dimensions; `plain` forces the JavaScript loop (tests). */
export function createKernel(dims: number, options: { plain?: boolean } = {}): CodeKernel {
  const stride = strideFor(dims);
  const module = options.plain ? null : simdModule();
  return module ? new SimdKernel(module, stride) : new PlainKernel(stride);
}

/** Whether the SIMD kernel runs on this runtime. */
export const simdAvailable = () => simdModule() !== null;
