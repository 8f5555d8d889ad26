// The @clawtools/core/providers subpath: schema normalisation per provider, tool definitions and
// result conversion in each provider's wire format.
export {
  CLAUDE_CODE_TOOL_NAMES,
  fromClaudeCodeToolName,
  isAnthropicOAuthKey,
  toClaudeCodeToolName,
} from "./claude-code-names.js";

export {
  type AnthropicTool,
  extractToolSchemas,
  type GeminiTool,
  type ObjectJsonSchema,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  PROVIDER_IDS,
  type ProviderId,
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

export {
  cleanSchemaForGemini,
  GEMINI_UNSUPPORTED_KEYWORDS,
} from "./gemini.js";

export { toolInputSchema } from "./input-schema.js";

export {
  isGeminiProvider,
  type NormalizeOptions,
  normalizeToolParameters,
} from "./normalize.js";

export {
  resolveStrict,
  strictLosses,
  type StrictMode,
  toStrictSchema,
} from "./openai-strict.js";
