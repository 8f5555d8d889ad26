import type { JsonSchema } from "../tool.js";
import { describeDroppedConstraints } from "./constraints.js";

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keywords OpenAI's strict structured-output mode does not accept (said in the description instead). */
const STRICT_UNSUPPORTED = new Set([
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "patternProperties",
  "minProperties",
  "maxProperties",
  "default",
  "examples",
  "$schema",
  "$id",
]);

const NOT_SCHEMAS = new Set(["enum", "const", "required", "default", "examples"]);

/**
 * What strict mode could not express at all: open objects (additionalProperties true or a
 * schema, pattern properties, free-form objects). Keywords it refuses are not losses: they move
 * into descriptions.
 */
export function strictLosses(schema: unknown, at = "root"): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => strictLosses(s, `${at}[${i}]`));
  if (!isObject(schema)) return [];
  const losses: string[] = [];
  if (schema.type === "object" || isObject(schema.properties)) {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
      losses.push(`${at}: open object (additionalProperties)`);
    if (schema.patternProperties) losses.push(`${at}: patternProperties`);
    if (!isObject(schema.properties) || Object.keys(schema.properties).length === 0) {
      if (at !== "root") losses.push(`${at}: free-form object`);
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && isObject(value)) {
      for (const [name, prop] of Object.entries(value)) losses.push(...strictLosses(prop, `${at}.${name}`));
    } else if (!NOT_SCHEMAS.has(key) && typeof value === "object" && value !== null) {
      losses.push(...strictLosses(value, `${at}.${key}`));
    }
  }
  return losses;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type))
    return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Rewrites a schema for OpenAI strict mode: every object closed and fully required, optional
 * properties made nullable (the validator reads a null optional as absent), refused keywords
 * moved into descriptions.
 */
export function toStrictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toStrictSchema);
  if (!isObject(schema)) return schema;
  let out: JsonSchema = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (STRICT_UNSUPPORTED.has(key)) {
      dropped.push(key);
      continue;
    }
    if (key === "properties" && isObject(value)) continue;
    out[key] =
      typeof value === "object" && value !== null && !NOT_SCHEMAS.has(key) ? toStrictSchema(value) : value;
  }
  if (schema.type === "object" || isObject(schema.properties)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(props).map(([name, prop]) => {
        const strict = toStrictSchema(prop) as JsonSchema;
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  out = describeDroppedConstraints(out, schema, dropped);
  return out;
}

export type StrictMode = boolean | "auto";

/**
 * Resolves `strict` for one schema: `true` always transforms; `auto` transforms when nothing
 * would be lost (optional fields become nullable + required) and stays non-strict otherwise.
 */
export function resolveStrict(
  schema: JsonSchema,
  mode: StrictMode,
): { strict: boolean; parameters: JsonSchema } {
  if (mode === true) return { strict: true, parameters: toStrictSchema(schema) as JsonSchema };
  if (mode === "auto" && strictLosses(schema).length === 0)
    return { strict: true, parameters: toStrictSchema(schema) as JsonSchema };
  return { strict: false, parameters: schema };
}
