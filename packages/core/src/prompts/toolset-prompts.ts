import type { ToolContext } from "../tool.js";
import type { CompletionRequest, CompletionValues } from "./completion.js";
import { type PluginPrompts, PromptError, type PromptInfo, type PromptResult } from "./types.js";

/** What serves a toolset's prompts, as a server or a view over the toolset sees it. */
export type PromptSource = Pick<ToolsetPrompts, "available" | "list" | "get" | "complete"> & {
  watch?: ToolsetPrompts["watch"];
};

/** One plugin's prompts, as a toolset serves them. */
export interface ServedPrompts {
  pluginId: string;
  prompts: PluginPrompts;
}

/**
 * The prompts one toolset serves: those of the plugins its policy kept (as for resources), each
 * asked with the toolset's context. A name two plugins list is the first one's.
 */
export class ToolsetPrompts {
  constructor(
    private readonly served: readonly ServedPrompts[],
    private readonly ctx: ToolContext,
  ) {}

  /** Whether any plugin serves prompts here (an MCP server declares the capability then). */
  get available(): boolean {
    return this.served.length > 0;
  }

  async list(): Promise<PromptInfo[]> {
    const lists = await Promise.all(this.served.map((s) => s.prompts.list(this.ctx)));
    const seen = new Set<string>();
    return lists.flat().filter((p) => !seen.has(p.name) && seen.add(p.name));
  }

  /** The plugin that lists `name` here. */
  private async ownerOf(name: string): Promise<PluginPrompts | undefined> {
    for (const { prompts } of this.served)
      if ((await prompts.list(this.ctx)).some((p) => p.name === name)) return prompts;
    return undefined;
  }

  /** `name` filled with `args`; `PromptError` when nobody serves it here or the arguments do not fit. */
  async get(name: string, args: Record<string, string> = {}): Promise<PromptResult> {
    const found = await (await this.ownerOf(name))?.get(name, args, this.ctx);
    if (!found) throw new PromptError(`Prompt not found: ${name}`, name);
    return found;
  }

  /** Values for an argument of `name` (none when its plugin offers no completer); `PromptError` for an unknown prompt. */
  async complete(name: string, request: CompletionRequest): Promise<CompletionValues> {
    const owner = await this.ownerOf(name);
    if (!owner) throw new PromptError(`Prompt not found: ${name}`, name);
    return (await owner.complete?.(name, request, this.ctx)) ?? { values: [] };
  }

  /** Calls `listener` when any plugin's list changes; returns the unsubscribe. */
  watch(listener: () => void): () => void {
    const stops = this.served.flatMap((s) => (s.prompts.watch ? [s.prompts.watch(this.ctx, listener)] : []));
    return () => {
      for (const stop of stops) stop();
    };
  }
}
