import type { CompletionRequest, CompletionValues } from "../prompts/completion.js";
import type { ToolContext } from "../tool.js";
import {
  type PluginResources,
  type ResourceChange,
  type ResourceContents,
  type ResourceInfo,
  ResourceNotFoundError,
  type ResourceTemplateInfo,
} from "./types.js";

/** What serves a toolset's resources, as a server or a view over the toolset sees it. */
export type ResourceSource = Pick<ToolsetResources, "available" | "list" | "templates" | "read"> & {
  watch?: ToolsetResources["watch"];
  complete?: ToolsetResources["complete"];
};

/** One plugin's resources, as a toolset serves them. */
export interface ServedResources {
  pluginId: string;
  resources: PluginResources;
}

/**
 * The resources one toolset serves: those of the plugins its policy kept (a plugin none of whose
 * tools is served serves no resources), each asked with the toolset's context, so one client
 * never lists or reads what another client's toolset holds.
 */
export class ToolsetResources {
  /**
   * `served` may be a function when the set changes while the toolset is served (an MCP server
   * that comes back); `changes` then tells when it did, so a watch follows it.
   */
  constructor(
    private readonly served: readonly ServedResources[] | (() => readonly ServedResources[]),
    private readonly ctx: ToolContext,
    private readonly changes?: (listener: () => void) => () => void,
  ) {}

  /** The plugins' resources served now. */
  private get current(): readonly ServedResources[] {
    return typeof this.served === "function" ? this.served() : this.served;
  }

  /**
   * These resources as `change` makes them of the served set each time they are asked, for the
   * same context; `changes` tells when `change` would give another set.
   */
  derive(
    change: (served: readonly ServedResources[]) => readonly ServedResources[],
    changes: (listener: () => void) => () => void,
  ): ToolsetResources {
    return new ToolsetResources(() => change(this.current), this.ctx, changes);
  }

  /** Whether any plugin serves resources here (an MCP server declares the capability then). */
  get available(): boolean {
    return this.current.length > 0;
  }

  /** The plugins that serve resources here. */
  get pluginIds(): string[] {
    return this.current.map((s) => s.pluginId);
  }

  async list(): Promise<ResourceInfo[]> {
    const lists = await Promise.all(this.current.map((s) => s.resources.list(this.ctx)));
    return lists.flat();
  }

  async templates(): Promise<ResourceTemplateInfo[]> {
    const lists = await Promise.all(this.current.map((s) => s.resources.templates?.(this.ctx) ?? []));
    return lists.flat();
  }

  /** The contents of `uri`; `ResourceNotFoundError` when no plugin serves it here. */
  async read(uri: string): Promise<ResourceContents> {
    for (const { resources } of this.current) {
      const found = await resources.read(uri, this.ctx);
      if (!found) continue;
      const mimeType = found.mimeType ? { mimeType: found.mimeType } : {};
      return typeof found.body === "string"
        ? { uri, ...mimeType, text: found.body }
        : { uri, ...mimeType, blob: Buffer.from(found.body).toString("base64") };
    }
    throw new ResourceNotFoundError(uri);
  }

  /**
   * Values for a variable of `uriTemplate` from the plugin that lists it (none when it offers no
   * completer); `ResourceNotFoundError` when no plugin lists the template here.
   */
  async complete(uriTemplate: string, request: CompletionRequest): Promise<CompletionValues> {
    for (const { resources } of this.current) {
      const templates = (await resources.templates?.(this.ctx)) ?? [];
      if (!templates.some((t) => t.uriTemplate === uriTemplate)) continue;
      return (await resources.complete?.(uriTemplate, request, this.ctx)) ?? { values: [] };
    }
    throw new ResourceNotFoundError(uriTemplate);
  }

  /**
   * Calls `listener` on every change any plugin reports; returns the unsubscribe. When the served
   * set changes, the watch moves to the new set and `listener` hears that the list changed.
   */
  watch(listener: (change: ResourceChange) => void): () => void {
    const attach = () =>
      this.current.flatMap((s) => (s.resources.watch ? [s.resources.watch(this.ctx, listener)] : []));
    let stops = attach();
    const stopAll = () => {
      for (const stop of stops.splice(0)) stop();
    };
    const off = this.changes?.(() => {
      stopAll();
      stops = attach();
      listener({});
    });
    return () => {
      off?.();
      stopAll();
    };
  }
}
