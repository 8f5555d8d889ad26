/**
 * The descriptor a saved code mode result is known by (OpenClaw 9.6's `CodeModeResultReference`):
 * its id, size, count, and a bounded sampled view of what it holds, so a model can decide what to
 * load without seeing the whole value. The shape and preview are observations, not a schema.
 */
export type ResultReference = {
  id: string;
  /** Encoded JSON bytes of the saved value. */
  bytes: number;
  /** Array length, object key count, or 1 for a scalar. */
  count: number;
  shape: string;
  preview: string;
  previewTruncated: boolean;
};

/** A descriptor is at most this many encoded JSON bytes; only shape and preview ever shrink. */
export const MAX_REFERENCE_BYTES = 768;
/** Values up to this size are previewed whole. */
const WHOLE_PREVIEW_BYTES = 256;
// the walk's bounds: nodes visited, depth, keys per object, arrays reported
const MAX_VISITS = 128;
const MAX_DEPTH = 5;
const MAX_KEYS = 16;
const MAX_ARRAYS = 8;

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** `text` cut to `max` UTF-16 units without splitting a surrogate pair, marked when cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** First, middle and last index of an array of `length` items. */
const sampleIndices = (length: number) =>
  length ? [...new Set([0, Math.floor(length / 2), length - 1])] : [];

/** `{"key":kind,…}` for an object (six keys at most), else the value's kind. */
function itemShape(value: unknown): string {
  if (!isObject(value)) return kindOf(value);
  const fields = Object.keys(value)
    .slice(0, 6)
    .map((key) => `${JSON.stringify(clip(key, 40))}:${kindOf(value[key])}`);
  return `{${fields.join(",")}}`;
}

/** A value with long text clipped, two levels and six fields deep at most. */
function sampled(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return clip(value, 48);
  if (value === null || typeof value !== "object") return value;
  if (depth >= 2) return Array.isArray(value) ? `[array: ${value.length} items]` : "[object]";
  if (Array.isArray(value)) return value.slice(0, 2).map((item) => sampled(item, depth + 1));
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).slice(0, 6)) out[clip(key, 40)] = sampled(record[key], depth + 1);
  return out;
}

type FoundArray = { path: string; items: unknown[] };

/** The largest arrays inside `value` (breadth first, within the walk's bounds), and whether the walk was cut. */
function findArrays(value: unknown): { arrays: FoundArray[]; limited: boolean } {
  const queue: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: "$", depth: 0 }];
  const arrays: FoundArray[] = [];
  let limited = false;
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    if (node.value === null || typeof node.value !== "object") continue;
    if (Array.isArray(node.value)) arrays.push({ path: node.path, items: node.value });
    if (node.depth === MAX_DEPTH) {
      limited = true;
      continue;
    }
    const visit = (child: unknown, path: string) => {
      if (queue.length >= MAX_VISITS) limited = true;
      else queue.push({ value: child, path, depth: node.depth + 1 });
    };
    if (Array.isArray(node.value)) {
      const indices = sampleIndices(node.value.length);
      if (indices.length < node.value.length) limited = true;
      for (const index of indices) visit(node.value[index], `${node.path}[${index}]`);
      continue;
    }
    const record = node.value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length > MAX_KEYS) limited = true;
    for (const key of keys.slice(0, MAX_KEYS)) {
      const segment = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
        ? `.${key}`
        : `[${JSON.stringify(clip(key, 64))}]`;
      visit(record[key], node.path + segment);
    }
  }
  arrays.sort((a, b) => b.items.length - a.items.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (arrays.length > MAX_ARRAYS) limited = true;
  return { arrays: arrays.slice(0, MAX_ARRAYS), limited };
}

/** Up to four short scalar fields of a top-level object, for context beside its arrays. */
function envelope(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const fields: Record<string, unknown> = {};
  let kept = 0;
  for (const key of Object.keys(value).slice(0, MAX_KEYS)) {
    const item = value[key];
    if ((item !== null && typeof item === "object") || (typeof item === "string" && item.length > 48))
      continue;
    fields[clip(key, 40)] = item;
    if (jsonBytes(fields) > 96) delete fields[clip(key, 40)];
    else if (++kept === 4) break;
  }
  return kept ? fields : undefined;
}

/** A JSON string's longest prefix whose encoded JSON (quotes and escapes included) fits `max` bytes. */
function fitString(text: string, max: number): string {
  if (jsonBytes(text) <= max) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (jsonBytes(text.slice(0, mid)) <= max) low = mid;
    else high = mid - 1;
  }
  const end = /[\uD800-\uDBFF]/.test(text[low - 1] ?? "") ? low - 1 : low;
  return text.slice(0, end);
}

/** The descriptor within `max` bytes: the id, bytes and count whole, shape and preview shortened. */
export function fitReference(
  reference: ResultReference,
  max = MAX_REFERENCE_BYTES,
): ResultReference | undefined {
  if (jsonBytes(reference) <= max) return reference;
  const bare = { ...reference, shape: "", preview: "", previewTruncated: true };
  const room = max - jsonBytes(bare);
  if (room < 0) return undefined;
  const shape = fitString(reference.shape, 2 + Math.floor(room / 3));
  const preview = fitString(reference.preview, 2 + room - (jsonBytes(shape) - 2));
  return { ...bare, shape, preview };
}

/** The descriptor of `value` (whose JSON is `json`) saved under `id`. */
export function describeResult(id: string, json: string, value: unknown): ResultReference {
  const { arrays, limited } = findArrays(value);
  const samples = arrays.map(({ path, items }) => {
    const indices = sampleIndices(items.length);
    const shapes = [...new Set(indices.map((index) => itemShape(items[index])))];
    return {
      path,
      count: items.length,
      observed: `sampled ${indices.length}/${items.length}${shapes.length > 1 ? " heterogeneous" : ""}: ${shapes.join(" | ")}`,
      items: indices.map((index) => ({ index, value: sampled(items[index]) })),
    };
  });
  const bytes = Buffer.byteLength(json, "utf8");
  const shape =
    (limited ? "limited traversal; " : "") +
    (samples.length
      ? samples.map((s) => `${s.path}: ${s.count} items, ${s.observed}`).join("; ")
      : itemShape(value));
  const preview =
    bytes <= WHOLE_PREVIEW_BYTES
      ? json
      : JSON.stringify(
          samples.length
            ? {
                sampled: true,
                traversalLimited: limited,
                fields: envelope(value),
                arrays: samples.map(({ observed: _o, ...sample }) => sample),
              }
            : { sampled: true, traversalLimited: limited, value: sampled(value) },
        );
  const count = Array.isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : 1;
  const fitted = fitReference({
    id,
    bytes,
    count,
    shape,
    preview,
    previewTruncated: bytes > WHOLE_PREVIEW_BYTES,
  });
  // an id is short and fixed-size: this holds unless MAX_REFERENCE_BYTES is changed to a tiny number
  if (!fitted) throw new Error("a saved result's identity does not fit its descriptor allowance");
  return fitted;
}
