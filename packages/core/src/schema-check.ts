/**
 * A small interpreted check for the JSON Schemas tools usually have (objects of strings,
 * numbers, booleans, arrays, enums, unions of those), so the first call of a tool does not
 * wait for the schema compiler to load (it costs more than the rest of core together).
 *
 * It answers `true` only when it is certain the value matches, with the same semantics as the
 * compiler (TypeBox 1.x: numbers are finite, string lengths count code points, patterns are
 * Unicode regular expressions). Anything else, a mismatch included, returns `false` and the
 * caller asks the compiler, which gives the authoritative verdict and the error messages.
 * A schema using a keyword this check does not know gets no quick check at all (null).
 */

export type QuickCheck = (value: unknown) => boolean;

/** Keywords that do not affect validation. TypeBox 1.x marks its own keys with `~`. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "$schema",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

const TYPES: Record<string, QuickCheck> = {
  string: (v) => typeof v === "string",
  number: (v) => Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown) =>
  typeof value === "string" || typeof value === "boolean" || value === null || Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const hasOwn = (value: object, key: string) => Object.hasOwn(value, key);

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Builds the quick check for one schema node; null when it uses something unsupported. */
function build(schema: unknown): QuickCheck | null {
  if (!isRecord(schema)) return null;
  const checks: QuickCheck[] = [];
  const objectChecks: Array<(value: Record<string, unknown>) => boolean> = [];
  let properties: Map<string, QuickCheck> | undefined;
  const patterns: Array<[RegExp, QuickCheck]> = [];
  let additional: QuickCheck | false | undefined;
  for (const key of Object.keys(schema)) {
    const spec = schema[key];
    if (key.startsWith("~") || ANNOTATIONS.has(key)) continue;
    switch (key) {
      case "type": {
        const list = typeof spec === "string" ? [spec] : spec;
        if (!Array.isArray(list) || list.length === 0) return null;
        const guards = list.map((t) => (typeof t === "string" ? TYPES[t] : undefined));
        if (guards.some((g) => g === undefined)) return null;
        const all = guards as QuickCheck[];
        checks.push(all.length === 1 ? all[0]! : (v) => all.some((g) => g(v)));
        break;
      }
      case "properties": {
        if (!isRecord(spec)) return null;
        properties = new Map();
        for (const name of Object.keys(spec)) {
          const check = build(spec[name]);
          if (!check) return null;
          properties.set(name, check);
        }
        break;
      }
      case "patternProperties": {
        // Type.Record's shape: each own key matching a pattern must match its schema
        if (!isRecord(spec)) return null;
        for (const source of Object.keys(spec)) {
          const check = build(spec[source]);
          if (!check) return null;
          try {
            patterns.push([new RegExp(source, "u"), check]);
          } catch {
            return null;
          }
        }
        break;
      }
      case "required": {
        if (!Array.isArray(spec) || !spec.every((k) => typeof k === "string")) return null;
        const keys = spec as string[];
        objectChecks.push((v) => keys.every((k) => hasOwn(v, k) && v[k] !== undefined));
        break;
      }
      case "additionalProperties": {
        if (spec === false) additional = false;
        else if (spec === true || (isRecord(spec) && Object.keys(spec).length === 0)) additional = undefined;
        else {
          const check = build(spec);
          if (!check) return null;
          additional = check;
        }
        break;
      }
      case "items": {
        const check = build(spec);
        if (!check) return null;
        checks.push((v) => !Array.isArray(v) || v.every((item) => check(item)));
        break;
      }
      case "enum": {
        if (!Array.isArray(spec) || !spec.every(isPrimitive)) return null;
        const options = spec as unknown[];
        checks.push((v) => options.includes(v));
        break;
      }
      case "const":
        if (!isPrimitive(spec)) return null;
        checks.push((v) => v === spec);
        break;
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum": {
        if (!Number.isFinite(spec)) return null;
        const limit = spec as number;
        const within =
          key === "minimum"
            ? (n: number) => n >= limit
            : key === "maximum"
              ? (n: number) => n <= limit
              : key === "exclusiveMinimum"
                ? (n: number) => n > limit
                : (n: number) => n < limit;
        checks.push((v) => typeof v !== "number" || within(v));
        break;
      }
      case "minLength":
      case "maxLength": {
        if (!isCount(spec)) return null;
        const limit = spec;
        checks.push((v) => {
          if (typeof v !== "string") return true;
          const n = v.length <= limit && key === "maxLength" ? v.length : codePoints(v);
          return key === "minLength" ? n >= limit : n <= limit;
        });
        break;
      }
      case "pattern": {
        if (typeof spec !== "string") return null;
        let re: RegExp;
        try {
          re = new RegExp(spec, "u");
        } catch {
          return null;
        }
        checks.push((v) => typeof v !== "string" || re.test(v));
        break;
      }
      case "minItems":
      case "maxItems": {
        if (!isCount(spec)) return null;
        const limit = spec;
        checks.push((v) => !Array.isArray(v) || (key === "minItems" ? v.length >= limit : v.length <= limit));
        break;
      }
      case "anyOf":
      case "oneOf": {
        if (!Array.isArray(spec) || spec.length === 0) return null;
        const variants = spec.map(build);
        if (variants.some((c) => c === null)) return null;
        const all = variants as QuickCheck[];
        checks.push(
          key === "anyOf"
            ? (v) => all.some((c) => c(v))
            : (v) => all.reduce((n, c) => n + (c(v) ? 1 : 0), 0) === 1,
        );
        break;
      }
      default:
        return null;
    }
  }
  if (properties || patterns.length > 0 || additional !== undefined) {
    const declared = [...(properties ?? new Map<string, QuickCheck>())];
    const props = new Map(declared);
    const extra = additional;
    const open = extra === undefined && patterns.length === 0;
    objectChecks.push((v) => {
      for (const [key, check] of declared) {
        if (hasOwn(v, key)) {
          const item = v[key];
          // an explicit undefined is the compiler's call (optional vs required semantics)
          if (item === undefined || !check(item)) return false;
        } else if (key in v) return false; // reachable through the prototype (`toString`): the compiler's call
      }
      if (open) return true;
      for (const key of Object.keys(v)) {
        if (key === "__proto__") return false;
        const item = v[key];
        let matched = props.has(key);
        for (const [re, patternCheck] of patterns) {
          if (!re.test(key)) continue;
          matched = true;
          if (item === undefined || !patternCheck(item)) return false;
        }
        if (!matched && (extra === false || (extra && (item === undefined || !extra(item))))) return false;
      }
      return true;
    });
  }
  if (objectChecks.length > 0) {
    // object keywords apply to objects; an array is left to the compiler
    const all = objectChecks.reduce((both, next) => (v) => both(v) && next(v));
    checks.push((v) => {
      if (Array.isArray(v)) return false;
      if (!isRecord(v)) return true;
      return all(v);
    });
  }
  if (checks.length === 0) return () => true;
  return checks.reduce((both, next) => (v) => both(v) && next(v));
}

/** Root keywords an object without keys satisfies whatever their value (they constrain keys it does not have). */
const KEYED = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "maxProperties",
  "$id",
]);

const emptyCache = new WeakMap<object, boolean>();

/**
 * Whether `{}` matches `schema` for certain, from its root keywords alone: an object type with
 * nothing required. A section with no configuration checks `{}` against its whole configuration
 * schema at start and at each factory; this answers without walking (or compiling) the schema.
 * False when unsure: the caller checks the usual way.
 */
export function emptyObjectPasses(schema: object): boolean {
  let passes = emptyCache.get(schema);
  if (passes === undefined) {
    passes = rootAcceptsEmpty(schema as Record<string, unknown>);
    emptyCache.set(schema, passes);
  }
  return passes;
}

function rootAcceptsEmpty(schema: Record<string, unknown>): boolean {
  if (schema.type !== "object") return false;
  for (const key of Object.keys(schema)) {
    if (key === "type" || key.startsWith("~") || ANNOTATIONS.has(key) || KEYED.has(key)) continue;
    if (key === "required" && Array.isArray(schema.required) && schema.required.length === 0) continue;
    if (key === "minProperties" && schema.minProperties === 0) continue;
    return false;
  }
  return true;
}

const cache = new WeakMap<object, QuickCheck | null>();

/** The quick check for `schema` (built once per schema object); null when it cannot be checked quickly. */
export function quickCheckFor(schema: object): QuickCheck | null {
  let check = cache.get(schema);
  if (check === undefined) {
    check = build(schema);
    cache.set(schema, check);
  }
  return check;
}
