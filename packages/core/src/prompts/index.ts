// @clawtools/core/prompts: prompts a plugin serves beside its tools (MCP prompts), and completion
// of their arguments.
export {
  type ArgumentCompleter,
  type CompletionRequest,
  type CompletionValues,
  completionOf,
  MAX_COMPLETION_VALUES,
} from "./completion.js";
export {
  type DefinePromptsInput,
  definePrompts,
  type PromptArgument,
  type StaticPrompt,
} from "./define-prompts.js";
export { type PromptSource, type ServedPrompts, ToolsetPrompts } from "./toolset-prompts.js";
export {
  isPromptError,
  type PluginPrompts,
  type PromptArgumentInfo,
  type PromptContent,
  PromptError,
  type PromptInfo,
  type PromptMessage,
  type PromptResult,
} from "./types.js";
