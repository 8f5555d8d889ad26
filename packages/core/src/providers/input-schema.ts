import type { JsonSchema } from "../tool.js";
import { isGeminiProvider, type NormalizeOptions, normalizeToolParameters } from "./normalize.js";

// Schemas this function produced, with the target they were made for: handing one back in (a
// toolset's tools passed on to a provider converter or the MCP server) returns it unchanged
// instead of normalising it twice.
const produced = new WeakMap<object, string>();

function targetKey(options: NormalizeOptions): string {
  // hosts (no provider) get 2020-12 composition as written; providers get it folded
  const base = isGeminiProvider(options.provider) ? "gemini" : options.provider ? "provider" : "json-schema";
  return options.unsupportedKeywords?.length ? `${base}:${options.unsupportedKeywords.join(",")}` : base;
}

/**
 * The input schema a model sees for a tool: the one place it is computed. createToolset's
 * tools, the provider converters (`toOpenAIChatTools`, `toAnthropicTools`, `toGeminiTools`,
 * `extractToolSchemas`…) and the MCP server all call this. An object root (an empty `{}` from an
 * MCP no-argument tool included), root unions flattened, then provider cleaning (Gemini's
 * subset, or `unsupportedKeywords` stripped). OpenAI strict mode is applied on top by the
 * OpenAI converters. The input is never mutated.
 */
export function toolInputSchema(parameters: unknown, options: NormalizeOptions = {}): JsonSchema {
  const key = targetKey(options);
  if (typeof parameters === "object" && parameters !== null && produced.get(parameters) === key) {
    return parameters as JsonSchema;
  }
  const schema = normalizeToolParameters(parameters as JsonSchema, options);
  produced.set(schema, key);
  return schema;
}
