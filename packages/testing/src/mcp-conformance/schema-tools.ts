import type { AnyAgentTool, JsonSchema } from "@clawtools/core";

/**
 * The input schema of the suite's `json_schema_2020_12_tool` (json-schema-2020-12): `$schema`,
 * `$defs` with an `$anchor`, a `$ref`, `allOf` / `anyOf` and `if` / `then` / `else`. MCP hosts list
 * it as written; model providers get it folded (core's `lowerComposition`).
 */
export const JSON_SCHEMA_2020_12: JsonSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if / then / else
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

const echoArguments: AnyAgentTool["execute"] = async (_id, params) => ({
  content: [{ type: "text", text: JSON.stringify(params) }],
  details: params,
});

/**
 * The fixture tools whose schemas go beyond a flat object: `json_schema_2020_12_tool`
 * (json-schema-2020-12) and `test_header_param`, whose `region` travels in the `Mcp-Param-Region`
 * HTTP header too (SEP-2243 `x-mcp-header`, http-custom-header-server-validation). Both answer
 * with the arguments they got.
 */
export function conformanceSchemaTools(): AnyAgentTool[] {
  return [
    {
      name: "json_schema_2020_12_tool",
      description: "Tool with JSON Schema 2020-12 features",
      parameters: JSON_SCHEMA_2020_12,
      execute: echoArguments,
    },
    {
      name: "test_header_param",
      description: "Answers with its arguments; region is also sent as the Mcp-Param-Region header",
      parameters: {
        type: "object",
        properties: {
          region: { type: "string", description: "A region name", "x-mcp-header": "Region" },
          note: { type: "string" },
        },
        required: ["region"],
      },
      execute: echoArguments,
    },
  ];
}
