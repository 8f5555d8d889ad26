import type { JsonSchema } from "../tool.js";
import { hasComposition, lowerComposition } from "./composition.js";
import { cleanSchemaForGemini } from "./gemini.js";

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

export interface NormalizeOptions {
  /** Provider id; anything containing "google" or "gemini" (and not "anthropic") gets Gemini cleaning. */
  provider?: string;
  /** Keywords the provider's model refuses (e.g. validation keywords for xAI); stripped everywhere. */
  unsupportedKeywords?: readonly string[];
}

export function isGeminiProvider(provider: string | undefined): boolean {
  const p = (provider ?? "").toLowerCase();
  return (p.includes("google") || p.includes("gemini")) && !p.includes("anthropic");
}

function mergeEnumish(a: JsonSchema, b: JsonSchema): JsonSchema | undefined {
  const values = (s: JsonSchema) => ("const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined);
  const va = values(a);
  const vb = values(b);
  if (!va || !vb) return undefined;
  const merged = [...new Set([...va, ...vb])];
  const types = new Set(merged.map((v) => typeof v));
  const out: JsonSchema = { enum: merged };
  if (types.size === 1) out.type = [...types][0] === "number" ? "number" : [...types][0];
  for (const key of ["description", "title", "default"]) {
    if (a[key] !== undefined) out[key] = a[key];
    else if (b[key] !== undefined) out[key] = b[key];
  }
  return out;
}

/** One object from a root anyOf/oneOf: properties merged, enums united, required = common keys. */
function flattenRootUnion(schema: JsonSchema, variants: unknown[]): JsonSchema {
  const objects = variants.filter(isObject);
  // a Map, so property names such as `toString` or `__proto__` stay ordinary names
  const merged = new Map<string, unknown>();
  for (const variant of objects) {
    if (!isObject(variant.properties)) continue;
    for (const [name, prop] of Object.entries(variant.properties)) {
      const existing = merged.get(name);
      if (isObject(existing) && isObject(prop)) merged.set(name, mergeEnumish(existing, prop) ?? existing);
      else if (existing === undefined) merged.set(name, prop);
    }
  }
  const properties: JsonSchema = Object.fromEntries(merged);
  const required = Array.isArray(schema.required)
    ? schema.required
    : [...merged.keys()].filter((name) =>
        objects.every((v) => Array.isArray(v.required) && (v.required as unknown[]).includes(name)),
      );
  const out: JsonSchema = { type: "object", properties };
  if (required.length > 0) out.required = required;
  out.additionalProperties = schema.additionalProperties ?? true;
  if (schema.title !== undefined) out.title = schema.title;
  if (schema.description !== undefined) out.description = schema.description;
  return out;
}

function stripKeywords(schema: unknown, keywords: ReadonlySet<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => stripKeywords(s, keywords));
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (keywords.has(key)) continue;
    if (key === "properties" && isObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([n, p]) => [n, stripKeywords(p, keywords)]),
      );
    } else if (
      typeof value === "object" &&
      value !== null &&
      !["enum", "const", "default", "examples", "required"].includes(key)
    ) {
      out[key] = stripKeywords(value, keywords);
    } else {
      out[key] = value;
    }
  }
  return out;
}

const hasRootRule = (schema: JsonSchema) => "anyOf" in schema || "oneOf" in schema || "not" in schema;

/**
 * Makes a tool's parameters acceptable to every provider: an object root (an empty `{}` from an
 * MCP no-argument tool included), root unions flattened; for a provider, JSON Schema 2020-12
 * composition folded (`lowerComposition`: allOf merged, root unions and conditions said in the
 * description), then provider-specific cleaning.
 * TypeBox's symbol keys are dropped; the input is never mutated.
 */
export function normalizeToolParameters(parameters: JsonSchema, options: NormalizeOptions = {}): JsonSchema {
  let schema: JsonSchema = isObject(parameters) ? JSON.parse(JSON.stringify(parameters)) : {};
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  // a union of whole objects (TypeBox's Union) becomes one object; a union beside the root's own
  // properties is a rule about them (2020-12), kept as written for hosts and folded for providers
  if (Array.isArray(union) && !schema.allOf && !isObject(schema.properties)) {
    schema = flattenRootUnion(schema, union);
  } else if (!schema.allOf) {
    if (
      schema.type === undefined &&
      (isObject(schema.properties) || Object.keys(schema).length === 0 || !("type" in schema))
    ) {
      schema = { type: "object", ...schema };
    }
    if (schema.type === "object" && !isObject(schema.properties)) schema = { ...schema, properties: {} };
  }
  // providers refuse composition at the root (and Gemini and strict mode anywhere): it is folded
  if (options.provider && (hasComposition(schema) || hasRootRule(schema))) schema = lowerComposition(schema);
  if (isGeminiProvider(options.provider)) return cleanSchemaForGemini(schema);
  if (options.unsupportedKeywords?.length) {
    return stripKeywords(schema, new Set(options.unsupportedKeywords)) as JsonSchema;
  }
  return schema;
}
