import type { ToolContext } from "../tool.js";
import { type ArgumentCompleter, completionOf } from "./completion.js";
import {
  type PluginPrompts,
  type PromptArgumentInfo,
  PromptError,
  type PromptInfo,
  type PromptResult,
} from "./types.js";

/** A prompt argument, with an optional completer. */
export interface PromptArgument extends PromptArgumentInfo {
  complete?: ArgumentCompleter;
}

/** A fixed prompt and how to fill it. */
export interface StaticPrompt extends Omit<PromptInfo, "arguments"> {
  arguments?: PromptArgument[];
  /** The messages for `args` (required arguments are checked before it is called). */
  get(args: Record<string, string>, ctx: ToolContext): PromptResult | Promise<PromptResult>;
}

export interface DefinePromptsInput {
  prompts: StaticPrompt[];
}

const infoOf = ({ get: _get, arguments: args, ...info }: StaticPrompt): PromptInfo => ({
  ...info,
  ...(args ? { arguments: args.map(({ complete: _complete, ...arg }) => arg) } : {}),
});

/** Checks `args` against the prompt's declaration: every required one given, nothing unknown. */
function checkArguments(prompt: StaticPrompt, args: Record<string, string>): void {
  const declared = new Map((prompt.arguments ?? []).map((a) => [a.name, a]));
  for (const [name, value] of Object.entries(args)) {
    if (!declared.has(name))
      throw new PromptError(
        `Prompt ${prompt.name} takes no argument "${name}" (it takes ${[...declared.keys()].join(", ") || "none"})`,
        prompt.name,
        name,
      );
    if (typeof value !== "string")
      throw new PromptError(`Prompt ${prompt.name}: argument "${name}" must be a string`, prompt.name, name);
  }
  for (const arg of declared.values())
    if (arg.required && (args[arg.name] === undefined || args[arg.name] === ""))
      throw new PromptError(
        `Prompt ${prompt.name}: missing required argument "${arg.name}"`,
        prompt.name,
        arg.name,
      );
}

/** `PluginPrompts` from fixed prompts (their arguments checked before `get`, completers per argument). */
export function definePrompts(input: DefinePromptsInput): PluginPrompts {
  const byName = new Map(input.prompts.map((p) => [p.name, p]));
  if (byName.size !== input.prompts.length) throw new Error("definePrompts: a prompt name is given twice");
  return {
    list: () => input.prompts.map(infoOf),
    get: async (name, args, ctx) => {
      const prompt = byName.get(name);
      if (!prompt) return undefined;
      checkArguments(prompt, args);
      return prompt.get(args, ctx);
    },
    complete: async (name, request, ctx) => {
      const arg = byName.get(name)?.arguments?.find((a) => a.name === request.argument);
      if (!arg?.complete) return undefined;
      return completionOf(await arg.complete(request.value, request.context ?? {}, ctx));
    },
  };
}
