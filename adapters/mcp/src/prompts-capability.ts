import type { CompletionRequest, CompletionValues } from "@clawtools/core/prompts";
import type { PromptInfo, PromptResult } from "@clawtools/core/prompts";
import type { McpResourcesLike } from "./resources-capability.js";

// Kept apart from prompts.ts: stdio's front declares the capability before it loads the SDK.

/** What the server needs of a toolset's prompts (`Toolset.prompts` from createToolset). */
export interface McpPromptsLike {
  /** Whether there is anything to serve: the `prompts` capability is declared only then. */
  readonly available: boolean;
  list(): Promise<PromptInfo[]>;
  get(name: string, args?: Record<string, string>): Promise<PromptResult>;
  complete(name: string, request: CompletionRequest): Promise<CompletionValues>;
  watch?(listener: () => void): () => void;
}

/**
 * The `prompts` capability of a toolset (none when it serves no prompts), and `completions`
 * when there is an argument to complete: a prompt's, or a resource template's.
 */
export function promptsCapability(
  prompts: McpPromptsLike | undefined,
  resources: McpResourcesLike | undefined,
) {
  return {
    ...(prompts?.available ? { prompts: prompts.watch ? { listChanged: true } : {} } : {}),
    ...(prompts?.available || (resources?.available && resources.complete) ? { completions: {} } : {}),
  };
}
