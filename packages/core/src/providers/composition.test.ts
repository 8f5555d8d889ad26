import { describe, expect, it } from "vitest";
import { validateToolArguments } from "../validate.js";
import { SchemaCompositionError } from "./composition.js";
import { toAnthropicTools, toProviderTools } from "./definitions.js";
import { toolInputSchema } from "./input-schema.js";
import { resolveStrict } from "./openai-strict.js";

// A tool schema written in JSON Schema 2020-12 (the MCP conformance suite's json_schema_2020_12_tool):
// MCP hosts get it as written; each provider gets what it accepts, the folded rules in words.
const contact = {
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
    phone: { type: "string", "x-mcp-header": "Phone" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if / then / else
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};
const tool = { name: "contact", description: "Saves a contact.", parameters: contact };
const RULES =
  'If contactMethod is "phone", phone is required; otherwise email is required. Give at least one of: phone, or email.';

/** Every keyword used anywhere in `schema` (property names are not keywords). */
function keywords(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) keywords(s, into);
  else if (typeof schema === "object" && schema !== null)
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties" && typeof value === "object" && value !== null)
        for (const s of Object.values(value)) keywords(s, into);
      else if (!["enum", "const", "required"].includes(key)) {
        into.add(key);
        keywords(value, into);
      }
    }
  return into;
}
const FOLDED = ["allOf", "anyOf", "oneOf", "if", "then", "else", "$anchor", "x-mcp-header"];

describe("JSON Schema 2020-12 composition, per provider", () => {
  it("MCP hosts (no provider) get the schema as written", () => {
    expect(toolInputSchema(contact)).toEqual(contact);
  });

  it("OpenAI chat and Responses: no composition at the root, the rules in the description", () => {
    for (const provider of ["openai", "openai-responses"] as const) {
      const [def] = toProviderTools([tool], provider) as Array<Record<string, any>>;
      const parameters = provider === "openai" ? def!.function.parameters : def!.parameters;
      expect([...keywords(parameters)].filter((k) => FOLDED.includes(k))).toEqual([]);
      expect(parameters).toMatchObject({
        type: "object",
        additionalProperties: false,
        properties: { address: { $ref: "#/$defs/address" }, phone: { type: "string" } },
        $defs: { address: { properties: { city: { type: "string" } } } },
      });
      expect(parameters.required).toBeUndefined();
      expect(parameters.description).toBe(RULES);
    }
  });

  it("OpenAI strict mode: every object closed, nothing it refuses left", () => {
    const [def] = toProviderTools([tool], "openai", { strict: true }) as Array<Record<string, any>>;
    const parameters = def!.function.parameters;
    expect(def!.function.strict).toBe(true);
    expect(parameters.required).toEqual(["name", "address", "contactMethod", "phone", "email"]);
    expect(parameters.properties.phone).toEqual({ type: ["string", "null"] });
    // a nullable reference is strict mode's own nested anyOf, which it takes
    expect(parameters.properties.address).toEqual({ anyOf: [{ $ref: "#/$defs/address" }, { type: "null" }] });
    const refused = [...FOLDED.filter((k) => k !== "anyOf"), "$schema"];
    expect([...keywords(parameters)].filter((k) => refused.includes(k))).toEqual([]);
    expect(parameters.anyOf).toBeUndefined();
    expect(resolveStrict(toolInputSchema(contact, { provider: "openai" }), "auto").strict).toBe(true);
  });

  it("Anthropic: an object root without allOf, anyOf or oneOf", () => {
    const [def] = toAnthropicTools([tool]);
    expect([...keywords(def!.input_schema)].filter((k) => FOLDED.includes(k))).toEqual([]);
    expect(def!.input_schema).toMatchObject({ type: "object", description: RULES });
    expect(Object.keys(def!.input_schema.properties as object)).toEqual([
      "name",
      "address",
      "contactMethod",
      "phone",
      "email",
    ]);
  });

  it("Gemini: references inlined, no 2020-12 keyword left", () => {
    const [def] = toProviderTools([tool], "gemini") as Array<{
      functionDeclarations: Array<Record<string, any>>;
    }>;
    const parameters = def!.functionDeclarations[0]!.parameters;
    expect(parameters.properties.address).toEqual({
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    });
    expect(
      [...keywords(parameters)].filter((k) =>
        [...FOLDED, "$ref", "$defs", "$schema", "additionalProperties"].includes(k),
      ),
    ).toEqual([]);
    expect(parameters.description).toBe(RULES);
  });

  it("a call is still checked against the schema as written", () => {
    expect(validateToolArguments(tool, { contactMethod: "phone", phone: "123" })).toEqual({
      contactMethod: "phone",
      phone: "123",
    });
    // the if/then rule the providers only read about: phone is required when contactMethod is phone
    expect(() => validateToolArguments(tool, { contactMethod: "phone", email: "a@b" })).toThrow(
      /Validation failed for tool "contact":[\s\S]*phone/,
    );
    expect(() => validateToolArguments(tool, { name: "x" })).toThrow(/Validation failed/);
    expect(() => validateToolArguments(tool, { email: "a@b", extra: 1 })).toThrow(/extra/);
  });

  it("refuses, naming where, what no provider can be given", () => {
    const union = { type: "object", properties: {}, anyOf: [{ type: "object" }, { type: "array" }] };
    expect(() => toolInputSchema(union, { provider: "anthropic" })).toThrow(SchemaCompositionError);
    expect(() => toolInputSchema(union, { provider: "openai" })).toThrow(
      "/anyOf/1: this anyOf variant is a array, but a tool's arguments are always an object: make every variant an object",
    );
    // hosts still get it as written
    expect(toolInputSchema(union)).toEqual(union);
  });
});
