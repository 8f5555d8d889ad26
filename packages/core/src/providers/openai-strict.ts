import type { JsonSchema } from "../tool.js";

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Keywords OpenAI's strict structured-output mode does not accept. */
const STRICT_UNSUPPORTED = new Set([
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "patternProperties",
  "default",
  "examples",
  "$schema",
  "$id",
]);

/** True when the schema already satisfies strict mode unchanged: every property required, no extras. */
export function isStrictCompatible(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  if (!isObject(schema)) return true;
  if (schema.type === "object" || isObject(schema.properties)) {
    const props = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (schema.additionalProperties !== false) return false;
    if (props.some((p) => !required.includes(p))) return false;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (STRICT_UNSUPPORTED.has(key)) return false;
    if (key === "properties" && isObject(value)) {
      if (!Object.values(value).every(isStrictCompatible)) return false;
    } else if (
      typeof value === "object" &&
      value !== null &&
      key !== "enum" &&
      key !== "required" &&
      !isStrictCompatible(value)
    ) {
      return false;
    }
  }
  return true;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type))
    return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Rewrites a schema for OpenAI strict mode: every object closed and fully required, optional
 * properties made nullable (the validator treats a null optional as absent), unsupported
 * keywords removed.
 */
export function toStrictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toStrictSchema);
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (STRICT_UNSUPPORTED.has(key)) continue;
    if (key === "properties" && isObject(value)) continue;
    out[key] =
      typeof value === "object" && value !== null && key !== "enum" && key !== "required"
        ? toStrictSchema(value)
        : value;
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
  return out;
}

export type StrictMode = boolean | "auto";

/** Resolves `strict` for one schema: `auto` turns it on only when nothing has to change. */
export function resolveStrict(
  schema: JsonSchema,
  mode: StrictMode,
): { strict: boolean; parameters: JsonSchema } {
  if (mode === true) return { strict: true, parameters: toStrictSchema(schema) as JsonSchema };
  if (mode === "auto" && isStrictCompatible(schema)) return { strict: true, parameters: schema };
  return { strict: false, parameters: schema };
}
