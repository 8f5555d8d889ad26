import type { JsonSchema } from "../tool.js";
import { describeDroppedConstraints } from "./constraints.js";

/** Keywords Gemini's function-declaration schema refuses (removed where they are keywords only). */
export const GEMINI_UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "patternProperties",
  "additionalProperties",
  "$schema",
  "$id",
  "$ref",
  "$defs",
  "definitions",
  "examples",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "multipleOf",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "not",
]);

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const METADATA = ["description", "title", "default"] as const;

function copyMetadata(from: JsonSchema, to: JsonSchema): JsonSchema {
  for (const key of METADATA) if (from[key] !== undefined && to[key] === undefined) to[key] = from[key];
  return to;
}

type Defs = Map<string, unknown>;

function collectDefs(schema: JsonSchema, inherited: Defs): Defs {
  const own = [schema.$defs, schema.definitions].filter(isObject);
  if (own.length === 0) return inherited;
  const defs = new Map(inherited);
  for (const group of own) for (const [k, v] of Object.entries(group)) defs.set(k, v);
  return defs;
}

function resolveRef(ref: string, defs: Defs): unknown {
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const name = match[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
  return defs.get(name);
}

function isNullSchema(v: unknown): boolean {
  return (
    isObject(v) &&
    (v.type === "null" ||
      (Array.isArray(v.enum) && v.enum.length === 1 && v.enum[0] === null) ||
      v.const === null)
  );
}

/** A variant that is one literal: `{const}` or a one-value enum, with its type. */
function literalOf(v: JsonSchema): { value: unknown; type: string } | undefined {
  const value = "const" in v ? v.const : Array.isArray(v.enum) && v.enum.length === 1 ? v.enum[0] : undefined;
  if (value === undefined) return undefined;
  return { value, type: typeof v.type === "string" ? v.type : typeof value };
}

function cleanUnion(schema: JsonSchema, key: "anyOf" | "oneOf", defs: Defs, seen: Set<string>): JsonSchema {
  const variants = (schema[key] as unknown[])
    .filter((v) => !isNullSchema(v))
    .map((v) => clean(v, defs, seen));
  const literals = variants.map((v) => (isObject(v) ? literalOf(v) : undefined));
  const rest: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) if (k !== key && k !== "type") rest[k] = v;
  const base = cleanObjectKeys(rest, defs, seen);
  if (literals.length > 0 && literals.every((l) => l !== undefined && l.type === literals[0]!.type)) {
    return { ...base, type: literals[0]!.type, enum: literals.map((l) => l!.value) };
  }
  if (variants.length === 1 && isObject(variants[0])) return copyMetadata(base, { ...variants[0] });
  if (variants.length === 0) return base;
  const objects = variants.filter((v) => isObject(v) && v.type === "object");
  if (objects.length === 1) return copyMetadata(base, { ...(objects[0] as JsonSchema) });
  const types = new Set(
    variants.map((v) => (isObject(v) && typeof v.type === "string" ? v.type : undefined)),
  );
  if (types.size === 1 && !types.has(undefined)) return { ...base, type: [...types][0] };
  const first = variants.find((v) => isObject(v) && typeof v.type === "string") as JsonSchema | undefined;
  return first ? { ...base, type: first.type } : base;
}

function cleanObjectKeys(schema: JsonSchema, defs: Defs, seen: Set<string>): JsonSchema {
  let out: JsonSchema = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (GEMINI_UNSUPPORTED_KEYWORDS.has(key)) {
      dropped.push(key);
      continue;
    }
    if (key === "properties") {
      // Property NAMES are data, not keywords: `pattern` or `format` parameters survive, and so
      // do names like `toString`, `constructor` or `__proto__` (own entries, never the prototype).
      out.properties = Object.fromEntries(
        isObject(value) ? Object.entries(value).map(([name, prop]) => [name, clean(prop, defs, seen)]) : [],
      );
    } else if (key === "items") {
      out.items = Array.isArray(value) ? value.map((v) => clean(v, defs, seen)) : clean(value, defs, seen);
    } else if (key === "const") {
      out.enum = [value];
    } else if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.type = types;
    } else if (key === "allOf" && Array.isArray(value)) {
      out.allOf = value.map((v) => clean(v, defs, seen));
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(out.required)) {
    // Gemini refuses a required key it cannot find among the properties, so those are dropped;
    // a schema without properties keeps its `required` as it is (OpenClaw's cleaner does too).
    const props = out.properties;
    const required = isObject(props)
      ? (out.required as unknown[]).filter((r) => typeof r === "string" && Object.hasOwn(props, r))
      : (out.required as unknown[]);
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  // what Gemini cannot check, the model can still read
  out = describeDroppedConstraints(out, schema, dropped);
  return out;
}

function clean(schema: unknown, defs: Defs, seen: Set<string>): unknown {
  if (!isObject(schema)) return schema;
  const scope = collectDefs(schema, defs);
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref;
    const target = resolveRef(ref, scope);
    if (target === undefined || seen.has(ref)) return copyMetadata(schema, {});
    const next = new Set(seen).add(ref);
    const resolved = clean(target, scope, next);
    return isObject(resolved) ? copyMetadata(schema, { ...resolved }) : resolved;
  }
  if (Array.isArray(schema.anyOf)) return cleanUnion(schema, "anyOf", scope, seen);
  if (Array.isArray(schema.oneOf)) return cleanUnion(schema, "oneOf", scope, seen);
  if (schema.properties === null) return cleanObjectKeys({ ...schema, properties: {} }, scope, seen);
  return cleanObjectKeys(schema, scope, seen);
}

/** Rewrites a JSON Schema into the subset Gemini's function declarations accept. */
export function cleanSchemaForGemini(schema: JsonSchema): JsonSchema {
  const out = clean(JSON.parse(JSON.stringify(schema)), new Map(), new Set());
  return isObject(out) ? out : { type: "object", properties: {} };
}
