import { ClawtoolsError } from "../clawtools-error.js";
import type { EmbeddedResourceContent, ResourceLinkContent } from "../resources/types.js";
import type { ToolContext } from "../tool.js";
import type { CompletionRequest, CompletionValues } from "./completion.js";

// What a plugin serves beside its tools: prompts a host offers its user (MCP prompts).

/** One argument a prompt takes (MCP prompt arguments are strings). */
export interface PromptArgumentInfo {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as listed. */
export interface PromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgumentInfo[];
}

/** What a prompt message holds: text, an image, audio, or a resource (embedded or linked). */
export type PromptContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | EmbeddedResourceContent
  | ResourceLinkContent;

export interface PromptMessage {
  role: "user" | "assistant";
  content: PromptContent;
}

/** A prompt filled with its arguments. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

/**
 * A plugin's prompts (`ClawtoolsPlugin.prompts`). Every call gets the toolset's context, so what is
 * listed can depend on who asks. `definePrompts` builds one from fixed prompts.
 */
export interface PluginPrompts {
  /** The prompts listed now for this context. */
  list(ctx: ToolContext): PromptInfo[] | Promise<PromptInfo[]>;
  /**
   * `name` filled with `args`, or undefined when this plugin does not serve it to this context.
   * Throws `PromptArgumentError` for arguments it cannot take.
   */
  get(
    name: string,
    args: Record<string, string>,
    ctx: ToolContext,
  ): PromptResult | undefined | Promise<PromptResult | undefined>;
  /** Values for an argument of `name` starting from what the user typed; undefined: none offered. */
  complete?(
    name: string,
    request: CompletionRequest,
    ctx: ToolContext,
  ): CompletionValues | undefined | Promise<CompletionValues | undefined>;
  /** Calls `listener` when the list of prompts of this context changes; returns the unsubscribe. */
  watch?(ctx: ToolContext, listener: () => void): () => void;
}

const PROMPT_ERROR = Symbol.for("clawtools.error.PromptError");

/**
 * The JSON-RPC error (-32602, invalid params) a prompts/get gets for a prompt nobody serves or
 * arguments it cannot take; `data` names the prompt (and the argument).
 */
export class PromptError extends ClawtoolsError {
  static override readonly marker: symbol = PROMPT_ERROR;
  readonly [PROMPT_ERROR] = true;
  override name = "PromptError";
  override readonly code = -32602;
  readonly data: { prompt: string; argument?: string };
  constructor(message: string, prompt: string, argument?: string) {
    super(message);
    this.data = { prompt, ...(argument !== undefined ? { argument } : {}) };
  }
}

/** Whether `error` is a PromptError from any copy of core (its brand, not `instanceof`). */
export function isPromptError(error: unknown): error is PromptError {
  return (
    typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[PROMPT_ERROR] === true
  );
}
