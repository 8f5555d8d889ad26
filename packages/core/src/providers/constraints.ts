import type { JsonSchema } from "../tool.js";

/** Validation keywords that can be said in words when a provider cannot take them as keywords. */
export const DESCRIBABLE_KEYWORDS: readonly string[] = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "default",
  "examples",
];

/**
 * Appends the constraints a provider had to drop to the description (`Constraints: minimum 1,
 * pattern ^a.`) so the model still learns them; returns the schema unchanged if none were dropped.
 */
export function describeDroppedConstraints(
  target: JsonSchema,
  source: JsonSchema,
  dropped: readonly string[],
): JsonSchema {
  const parts = dropped
    .filter((key) => DESCRIBABLE_KEYWORDS.includes(key) && source[key] !== undefined)
    .map((key) => `${key} ${typeof source[key] === "string" ? source[key] : JSON.stringify(source[key])}`);
  if (parts.length === 0) return target;
  const note = `Constraints: ${parts.join(", ")}.`;
  const description =
    typeof target.description === "string" && target.description ? `${target.description} ${note}` : note;
  return { ...target, description };
}
