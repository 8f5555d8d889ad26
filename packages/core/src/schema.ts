import { type TOptional, type TUnsafe, Type } from "@sinclair/typebox";
import { lowerComposition, SchemaCompositionError } from "./providers/composition.js";
import type { JsonSchema } from "./tool.js";

export { type Static, type TObject, type TSchema, Type } from "@sinclair/typebox";

export interface StringEnumOptions<T extends string> {
  description?: string;
  title?: string;
  default?: T;
}

/** A flat `{type:"string", enum:[…]}`: never a union of literals, which some providers reject. */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: StringEnumOptions<T[number]> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

export function optionalStringEnum<const T extends readonly string[]>(
  values: T,
  options: StringEnumOptions<T[number]> = {},
): TOptional<TUnsafe<T[number]>> {
  return Type.Optional(stringEnum(values, options));
}

export interface SchemaIssue {
  /** JSON pointer-ish path to the offending node ("" is the root). */
  path: string;
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reports every breach of the tool-schema guardrails: the root must be an object with
 * properties; no null variants; no property named `format`; and JSON Schema 2020-12 composition
 * (allOf / anyOf / oneOf, if / then / else) only where it can be folded into what every provider
 * takes (`lowerComposition`: a root union of non-objects or an allOf of contradicting parts cannot).
 */
export function checkToolSchema(schema: JsonSchema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (!isRecord(schema)) return [{ path: "", message: "schema must be an object" }];
  if (schema.type !== "object") issues.push({ path: "", message: 'root schema must have type "object"' });
  if (!isRecord(schema.properties)) issues.push({ path: "", message: "root schema must have properties" });
  walk(schema, "", issues);
  try {
    lowerComposition(schema);
  } catch (error) {
    if (!(error instanceof SchemaCompositionError)) throw error;
    issues.push({ path: error.schemaPath, message: error.message.slice(error.message.indexOf(": ") + 2) });
  }
  return issues;
}

function walk(node: unknown, path: string, issues: SchemaIssue[]): void {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) walk(item, `${path}/${i}`, issues);
    return;
  }
  if (!isRecord(node)) return;
  const type = node.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) {
    issues.push({ path, message: "null variants are not allowed; use Type.Optional instead" });
  }
  if (Array.isArray(node.enum) && node.enum.includes(null)) {
    issues.push({ path, message: "null enum values are not allowed" });
  }
  if ("const" in node && node.const === null) issues.push({ path, message: "null const is not allowed" });
  if (isRecord(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      if (name === "format") {
        issues.push({
          path: `${path}/properties/format`,
          message: 'a property named "format" is not allowed',
        });
      }
      walk(child, `${path}/properties/${name}`, issues);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" || key === "enum" || key === "const" || key === "default" || key === "examples")
      continue;
    if (typeof value === "object" && value !== null) walk(value, `${path}/${key}`, issues);
  }
}
