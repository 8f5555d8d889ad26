import type { JsonSchema } from "../tool.js";

/** The longest input signature a search result carries; longer ones say "use tool_describe". */
export const MAX_SIGNATURE_CHARS = 600;

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A compact TypeScript-style signature of a JSON Schema (`{ path: string; limit?: number }`) for
 * search results, so a model can often call without describing. Depth-limited; undefined when the
 * schema is open or the signature would pass MAX_SIGNATURE_CHARS.
 */
export function inputSignature(schema: unknown): string | undefined {
  const text = render(schema, 0, 3);
  return text && text.length <= MAX_SIGNATURE_CHARS ? text : undefined;
}

/**
 * The same TypeScript-style type, deeper (8 levels) and unbounded in length: the type a code
 * mode declaration (`tools/<name>.d.ts`) shows for a tool's input or output.
 */
export function schemaType(schema: unknown): string {
  return render(schema, 0, 8);
}

function render(schema: unknown, depth: number, maxDepth: number): string {
  if (!isObject(schema)) return "unknown";
  if (depth > maxDepth) return "object";
  const literals = schema.enum ?? (schema.const !== undefined ? [schema.const] : undefined);
  if (Array.isArray(literals) && literals.length > 0)
    return (
      literals
        .slice(0, 12)
        .map((value) => JSON.stringify(value))
        .join(" | ") + (literals.length > 12 ? " | …" : "")
    );
  const variants = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(variants) && variants.length > 0)
    return [...new Set(variants.map((v) => render(v, depth + 1, maxDepth)))].join(" | ");
  const type = schema.type;
  if (Array.isArray(type))
    return type.map((t) => render({ ...schema, type: t }, depth, maxDepth)).join(" | ");
  switch (type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${render(schema.items, depth + 1, maxDepth)}>`;
    case "object":
    case undefined: {
      const properties = isObject(schema.properties) ? schema.properties : undefined;
      if (!properties) return type === "object" ? "Record<string, unknown>" : "unknown";
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const fields = Object.entries(properties).map(
        ([name, value]) =>
          `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}${required.has(name) ? "" : "?"}: ${render(value, depth + 1, maxDepth)}`,
      );
      return fields.length ? `{ ${fields.join("; ")} }` : "{}";
    }
    default:
      return "unknown";
  }
}
