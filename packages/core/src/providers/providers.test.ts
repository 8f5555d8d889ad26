import { describe, expect, it } from "vitest";
import { Type } from "../schema.js";
import { validateToolArguments } from "../validate.js";
import {
  extractToolSchemas,
  toAnthropicToolResult,
  toAnthropicTools,
  toGeminiFunctionResponse,
  toGeminiTools,
  toOpenAIChatToolMessages,
  toOpenAIChatTools,
  toOpenAIResponsesOutput,
  toOpenAIResponsesTools,
  toProviderTools,
} from "./definitions.js";
import { fromClaudeCodeToolName, isAnthropicOAuthKey, toClaudeCodeToolName } from "./claude-code-names.js";
import { createToolset } from "../assemble.js";
import { definePlugin } from "../plugin.js";
import { cleanSchemaForGemini } from "./gemini.js";
import { toolInputSchema } from "./input-schema.js";
import { normalizeToolParameters } from "./normalize.js";

describe("one schema path", () => {
  const parameters = Type.Object({ path: Type.String({ minLength: 1 }), n: Type.Optional(Type.Number()) });
  const plugin = definePlugin({
    id: "one-path",
    version: "1.0.0",
    tools: [
      {
        names: ["t"],
        factory: () => ({
          name: "t",
          label: "t",
          description: "d",
          parameters,
          execute: async () => ({ content: [], details: undefined }),
        }),
      },
    ],
  });

  it("createToolset and every provider converter give the schema toolInputSchema computes", () => {
    const raw = { name: "t", description: "d", parameters };
    for (const provider of ["openai", "anthropic", "gemini"] as const) {
      const expected = toolInputSchema(parameters, { provider });
      const [wrapped] = createToolset({ plugins: [plugin], provider }).tools;
      expect(wrapped!.parameters).toEqual(expected);
      const fromRaw = toProviderTools([raw], provider) as unknown[];
      const fromToolset = toProviderTools([wrapped!], provider) as unknown[];
      expect(fromToolset).toEqual(fromRaw);
    }
    expect(toolInputSchema(parameters, { provider: "gemini" }).properties).toEqual({
      path: { type: "string", description: "Constraints: minLength 1." },
      n: { type: "number" },
    });
  });

  it("hands a schema it produced back unchanged, for the same target only", () => {
    const gemini = toolInputSchema(parameters, { provider: "gemini" });
    expect(toolInputSchema(gemini, { provider: "google" })).toBe(gemini);
    const plain = toolInputSchema(parameters);
    expect(toolInputSchema(plain)).toBe(plain);
    expect(toolInputSchema(plain, { provider: "gemini" })).not.toBe(plain);
    expect(parameters.properties.path.minLength).toBe(1);
  });
});

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
  it("keeps property names that collide with Object.prototype members intact", () => {
    const schema = JSON.parse(`{
      "type": "object",
      "properties": {
        "toString": { "type": "string", "minLength": 1 },
        "constructor": { "type": "number" },
        "__proto__": { "type": "boolean" },
        "hasOwnProperty": { "const": "x" }
      },
      "required": ["toString", "constructor", "__proto__", "valueOf"]
    }`);
    const out = cleanSchemaForGemini(schema);
    expect(JSON.stringify(out)).toBe(
      '{"type":"object","properties":{"toString":{"type":"string","description":"Constraints: minLength 1."},"constructor":{"type":"number"},"__proto__":{"type":"boolean"},"hasOwnProperty":{"enum":["x"]}},"required":["toString","constructor","__proto__"]}',
    );
    expect(Object.getPrototypeOf(out.properties)).toBe(Object.prototype);
    const union = normalizeToolParameters({
      anyOf: [
        { type: "object", properties: { toString: { type: "string" } }, required: ["toString"] },
        {
          type: "object",
          properties: { toString: { type: "string" }, constructor: { type: "number" } },
          required: ["toString"],
        },
      ],
    });
    expect(union).toEqual({
      type: "object",
      properties: { toString: { type: "string" }, constructor: { type: "number" } },
      required: ["toString"],
      additionalProperties: true,
    });
  });

  it("strips unsupported keywords but keeps parameters named pattern and format", () => {
    const schema = Type.Object({
      pattern: Type.String({ minLength: 1, pattern: "^x" }),
      format: Type.Optional(Type.String({ format: "uri" })),
      n: Type.Number({ minimum: 0, maximum: 9 }),
    });
    expect(cleanSchemaForGemini(schema)).toEqual({
      type: "object",
      properties: {
        pattern: { type: "string", description: "Constraints: minLength 1, pattern ^x." },
        format: { type: "string", description: "Constraints: format uri." },
        n: { type: "number", description: "Constraints: minimum 0, maximum 9." },
      },
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
    // auto: optional fields can become nullable + required without losing meaning
    expect(toOpenAIChatTools(tools, { strict: "auto" })[0]!.function).toMatchObject({
      strict: true,
      parameters: { required: ["path", "limit"] },
    });
    // an open object cannot be expressed in strict mode: auto stays non-strict
    const open = [
      {
        name: "t",
        description: "d",
        parameters: { type: "object", properties: { meta: { type: "object", additionalProperties: true } } },
      },
    ];
    expect(toOpenAIChatTools(open, { strict: "auto" })[0]!.function.strict).toBeUndefined();
    // refused keywords move into the description instead of being lost
    const withPattern = [
      { name: "t", description: "d", parameters: Type.Object({ id: Type.String({ pattern: "^[a-z]+$" }) }) },
    ];
    expect(toOpenAIChatTools(withPattern, { strict: true })[0]!.function.parameters.properties).toEqual({
      id: { type: "string", description: "Constraints: pattern ^[a-z]+$." },
    });
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

describe("result conversion", () => {
  const result = {
    content: [
      { type: "text" as const, text: "a chart" },
      { type: "image" as const, data: "iVBOR", mimeType: "image/png" },
    ],
    details: {},
  };

  it("OpenAI chat: tool message, then the images in a user message", () => {
    const messages: import("openai/resources/chat/completions").ChatCompletionMessageParam[] =
      toOpenAIChatToolMessages("call_1", result);
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "a chart" },
      {
        role: "user",
        content: [
          { type: "text", text: "Image(s) returned by tool call call_1:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
        ],
      },
    ]);
  });

  it("Responses: function_call_output with text and image parts", () => {
    const item: import("openai/resources/responses/responses").ResponseInputItem = toOpenAIResponsesOutput(
      "call_2",
      result,
    );
    expect(item).toEqual({
      type: "function_call_output",
      call_id: "call_2",
      output: [
        { type: "input_text", text: "a chart" },
        { type: "input_image", image_url: "data:image/png;base64,iVBOR", detail: "auto" },
      ],
    });
  });

  it("Anthropic: tool_result with is_error and image blocks; Gemini: functionResponse with inline parts", () => {
    const block: import("@anthropic-ai/sdk/resources/messages").ToolResultBlockParam = toAnthropicToolResult(
      "tu_1",
      { ...result, isError: true },
    );
    expect(block).toMatchObject({
      is_error: true,
      content: [{ type: "text" }, { type: "image", source: { type: "base64", media_type: "image/png" } }],
    });
    const part: import("@google/genai").Part = toGeminiFunctionResponse("read", result);
    expect(part).toEqual({
      functionResponse: {
        name: "read",
        response: { output: "a chart" },
        parts: [{ inlineData: { mimeType: "image/png", data: "iVBOR" } }],
      },
    });
    expect(
      toGeminiFunctionResponse("read", {
        content: [{ type: "text", text: "bad" }],
        details: {},
        isError: true,
      }),
    ).toEqual({
      functionResponse: { name: "read", response: { error: "bad" } },
    });
  });
});

describe("Claude Code tool names (Anthropic OAuth)", () => {
  const tools = ["read", "write", "edit", "exec", "grep", "web_fetch", "webfetch", "todowrite"].map(
    (name) => ({
      name,
      description: name,
      parameters: { type: "object", properties: {} },
    }),
  );

  it("recognises OAuth tokens", () => {
    expect(isAnthropicOAuthKey("sk-ant-oat01-abc")).toBe(true);
    expect(isAnthropicOAuthKey("sk-ant-api03-abc")).toBe(false);
    expect(isAnthropicOAuthKey(undefined)).toBe(false);
  });

  it("sends Claude Code casing only when asked, for case-insensitive matches only", () => {
    expect(toAnthropicTools(tools).map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(
      toProviderTools(tools, "anthropic", { claudeCodeNames: true }).map((t: { name?: string }) => t.name),
    ).toEqual(["Read", "Write", "Edit", "exec", "Grep", "web_fetch", "WebFetch", "TodoWrite"]);
  });

  it("maps a call back to the registered name", () => {
    const names = tools.map((t) => t.name);
    expect(fromClaudeCodeToolName("Read", names)).toBe("read");
    expect(fromClaudeCodeToolName("WebFetch", names)).toBe("webfetch");
    expect(fromClaudeCodeToolName("exec", names)).toBe("exec");
    expect(fromClaudeCodeToolName("Unknown", names)).toBe("Unknown");
    expect(toClaudeCodeToolName("bash")).toBe("Bash");
  });
});
