import type { AnyAgentTool, JsonSchema } from "../tool.js";
import { toClaudeCodeToolName } from "./claude-code-names.js";
import { toolInputSchema } from "./input-schema.js";
import { isGeminiProvider } from "./normalize.js";
import { resolveStrict, type StrictMode } from "./openai-strict.js";

export type ProviderId = "openai" | "openai-responses" | "anthropic" | "gemini";
export const PROVIDER_IDS: readonly ProviderId[] = ["openai", "openai-responses", "anthropic", "gemini"];

type ToolLike = Pick<AnyAgentTool, "name" | "description" | "parameters">;

/** OpenAI Chat Completions `tools[]` entries. */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}
/** OpenAI Responses API `tools[]` entries. */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}
/** Anthropic Messages API `tools[]` entries. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectJsonSchema;
}
/** An object-rooted JSON Schema, as Anthropic's `input_schema` requires. */
export type ObjectJsonSchema = { type: "object"; [key: string]: unknown };
/** Gemini `tools[]` entry holding every function declaration. */
export interface GeminiTool {
  functionDeclarations: Array<{ name: string; description: string; parameters: JsonSchema }>;
}

export function toOpenAIChatTools(
  tools: readonly ToolLike[],
  options: { strict?: StrictMode } = {},
): OpenAIChatTool[] {
  return tools.map((tool) => {
    const { strict, parameters } = resolveStrict(
      toolInputSchema(tool.parameters, { provider: "openai" }),
      options.strict ?? false,
    );
    return {
      type: "function",
      function: { name: tool.name, description: tool.description, parameters, ...(strict ? { strict } : {}) },
    };
  });
}

export function toOpenAIResponsesTools(
  tools: readonly ToolLike[],
  options: { strict?: StrictMode } = {},
): OpenAIResponsesTool[] {
  return tools.map((tool) => {
    const { strict, parameters } = resolveStrict(
      toolInputSchema(tool.parameters, { provider: "openai" }),
      options.strict ?? false,
    );
    return { type: "function", name: tool.name, description: tool.description, parameters, strict };
  });
}

/**
 * Anthropic tool definitions. With `claudeCodeNames` (needed for OAuth tokens, see
 * `isAnthropicOAuthKey`) names that match a Claude Code tool case-insensitively are sent in its
 * casing; map the calls back with `fromClaudeCodeToolName`.
 */
export function toAnthropicTools(
  tools: readonly ToolLike[],
  options: { claudeCodeNames?: boolean } = {},
): AnthropicTool[] {
  return tools.map((tool) => ({
    name: options.claudeCodeNames ? toClaudeCodeToolName(tool.name) : tool.name,
    description: tool.description,
    input_schema: toolInputSchema(tool.parameters, { provider: "anthropic" }) as ObjectJsonSchema,
  }));
}

export function toGeminiTools(tools: readonly ToolLike[]): GeminiTool[] {
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: toolInputSchema(tool.parameters, { provider: "gemini" }),
      })),
    },
  ];
}

/** Tool definitions in one provider's wire format. */
export function toProviderTools(
  tools: readonly ToolLike[],
  provider: ProviderId,
  options: { strict?: StrictMode; claudeCodeNames?: boolean } = {},
) {
  switch (provider) {
    case "openai":
      return toOpenAIChatTools(tools, options);
    case "openai-responses":
      return toOpenAIResponsesTools(tools, options);
    case "anthropic":
      return toAnthropicTools(tools, options);
    case "gemini":
      return toGeminiTools(tools);
    default:
      throw new Error(`Unknown provider "${provider}" (expected one of ${PROVIDER_IDS.join(", ")})`);
  }
}

/** `[{name, description, input_schema}]`, Gemini-cleaned when the provider is Google/Gemini (the clawtools `extractToolSchemas`). */
export function extractToolSchemas(tools: readonly ToolLike[], provider?: string): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: toolInputSchema(
      tool.parameters,
      isGeminiProvider(provider) ? { provider } : {},
    ) as ObjectJsonSchema,
  }));
}

export {
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  toOpenAIChatToolMessages,
  toOpenAIResponsesOutput,
} from "./tool-results.js";
