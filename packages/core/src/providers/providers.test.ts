import { describe, expect, it } from "vitest";
import { Type } from "../schema.js";
import { validateToolArguments } from "../validate.js";
import {
  extractToolSchemas,
  toAnthropicTools,
  toGeminiTools,
  toOpenAIChatTools,
  toOpenAIResponsesTools,
} from "./definitions.js";
import { cleanSchemaForGemini } from "./gemini.js";
import { normalizeToolParameters } from "./normalize.js";

describe("normalizeToolParameters", () => {
  it("fills object roots (MCP no-arg tools) and keeps typed schemas", () => {
    expect(normalizeToolParameters({})).toEqual({ type: "object", properties: {} });
    expect(normalizeToolParameters({ type: "object" })).toEqual({ type: "object", properties: {} });
    expect(normalizeToolParameters({ properties: { a: { type: "string" } } })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
  });

  it("flattens a root union into one object with merged enums and common required keys", () => {
    const schema = {
      description: "d",
      anyOf: [
        {
          type: "object",
          properties: { action: { const: "get" }, id: { type: "string" } },
          required: ["action", "id"],
        },
        {
          type: "object",
          properties: { action: { const: "list" }, limit: { type: "number" } },
          required: ["action"],
        },
      ],
    };
    expect(normalizeToolParameters(schema)).toEqual({
      type: "object",
      properties: {
        action: { type: "string", enum: ["get", "list"] },
        id: { type: "string" },
        limit: { type: "number" },
      },
      required: ["action"],
      additionalProperties: true,
      description: "d",
    });
  });

  it("leaves a root allOf alone and strips provider-declared keywords only as keywords", () => {
    const allOf = { allOf: [{ type: "object" }] };
    expect(normalizeToolParameters(allOf)).toEqual(allOf);
    const out = normalizeToolParameters(
      { type: "object", properties: { pattern: { type: "string", pattern: "x", minLength: 1 } } },
      { provider: "xai", unsupportedKeywords: ["pattern", "minLength"] },
    );
    expect(out).toEqual({ type: "object", properties: { pattern: { type: "string" } } });
  });
});

describe("cleanSchemaForGemini", () => {
  it("strips unsupported keywords but keeps parameters named pattern and format", () => {
    const schema = Type.Object({
      pattern: Type.String({ minLength: 1, pattern: "^x" }),
      format: Type.Optional(Type.String({ format: "uri" })),
      n: Type.Number({ minimum: 0, maximum: 9 }),
    });
    expect(cleanSchemaForGemini(schema)).toEqual({
      type: "object",
      properties: { pattern: { type: "string" }, format: { type: "string" }, n: { type: "number" } },
      required: ["pattern", "n"],
    });
  });

  it("inlines local $refs (cycles → {}), collapses literal unions, drops null variants and types", () => {
    const schema = {
      type: "object",
      $defs: {
        Mode: { type: "string", enum: ["a", "b"] },
        Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } },
      },
      properties: {
        mode: { $ref: "#/$defs/Mode", description: "how" },
        node: { $ref: "#/$defs/Node" },
        missing: { $ref: "#/$defs/Nope", title: "t" },
        kind: { anyOf: [{ const: "x" }, { const: "y" }, { type: "null" }] },
        maybe: { anyOf: [{ type: "string" }, { type: "null" }] },
        types: { type: ["string", "null"] },
        multi: { type: ["string", "number", "null"] },
        c: { const: 5 },
      },
      required: ["mode", "ghost"],
    };
    expect(cleanSchemaForGemini(schema)).toEqual({
      type: "object",
      properties: {
        mode: { type: "string", enum: ["a", "b"], description: "how" },
        node: { type: "object", properties: { next: {} } },
        missing: { title: "t" },
        kind: { type: "string", enum: ["x", "y"] },
        maybe: { type: "string" },
        types: { type: "string" },
        multi: { type: ["string", "number"] },
        c: { enum: [5] },
      },
      required: ["mode"],
    });
  });
});

describe("provider tool definitions", () => {
  const tools = [
    {
      name: "read",
      description: "Read a file",
      parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Number()) }),
    },
  ];

  it("speaks each provider's wire format", () => {
    expect(toOpenAIChatTools(tools)[0]).toEqual({
      type: "function",
      function: {
        name: "read",
        description: "Read a file",
        parameters: {
          type: "object",
          properties: { path: { type: "string" }, limit: { type: "number" } },
          required: ["path"],
        },
      },
    });
    expect(toOpenAIResponsesTools(tools)[0]).toMatchObject({ type: "function", name: "read", strict: false });
    expect(toAnthropicTools(tools)[0]).toMatchObject({ name: "read", input_schema: { type: "object" } });
    expect(toGeminiTools(tools)[0]!.functionDeclarations[0]).toMatchObject({
      name: "read",
      parameters: { type: "object" },
    });
    expect(extractToolSchemas(tools, "google")[0]).toMatchObject({
      name: "read",
      input_schema: { required: ["path"] },
    });
  });

  it("strict mode closes objects, makes optionals nullable, and nulls read back as absent", () => {
    const [def] = toOpenAIChatTools(tools, { strict: true });
    expect(def!.function).toMatchObject({
      strict: true,
      parameters: {
        properties: { path: { type: "string" }, limit: { type: ["number", "null"] } },
        required: ["path", "limit"],
        additionalProperties: false,
      },
    });
    expect(toOpenAIChatTools(tools, { strict: "auto" })[0]!.function.strict).toBeUndefined();
    expect(validateToolArguments(tools[0]!, { path: "a", limit: null })).toEqual({ path: "a" });
  });

  it("types check against the official SDKs", async () => {
    const chat: import("openai/resources/chat/completions").ChatCompletionTool[] = toOpenAIChatTools(tools);
    const responses: import("openai/resources/responses/responses").FunctionTool[] =
      toOpenAIResponsesTools(tools);
    const anthropic: import("@anthropic-ai/sdk/resources/messages").Tool[] = toAnthropicTools(tools);
    const gemini: import("@google/genai").Tool[] = toGeminiTools(tools);
    expect([chat, responses, anthropic, gemini].every((list) => list.length === 1)).toBe(true);
  });
});
