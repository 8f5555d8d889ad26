import type { AnyAgentTool, ClawtoolsPlugin } from "@clawtools/core";
import { type PluginResources, type ServedResources, ToolsetResources } from "@clawtools/core/resources";
import type { MountedMcpServer } from "./mcp-servers.js";

/** Builds a returning server's tools through the policy, for one toolset's context. */
export type BuildLateTools = (plugin: ClawtoolsPlugin) => AnyAgentTool[];

/** A toolset whose `tools` follow the MCP servers that come and go after the start. */
export type FollowingLateTools<T> = T & {
  readonly tools: AnyAgentTool[];
  onToolsChanged(listener: () => void): () => void;
};

/**
 * The MCP servers that come back after serve started, and the start tools whose server went away.
 * Every toolset serve hands out (the server's own, each HTTP session's, each root's) is a view
 * over it (`over`): its own tools without the gone ones, plus each returning server's tools built
 * for that toolset. A view's array is replaced on each change (the MCP server rebuilds its listing
 * when the array changes) and listeners are told, so connected clients get
 * `notifications/tools/list_changed`. A view's resources follow the same way: a gone server's
 * leave, a returning server's join where the view serves one of its tools, and watchers hear
 * `notifications/resources/list_changed`.
 */
export class LateMcpTools {
  #build: BuildLateTools | undefined;
  #pending: MountedMcpServer[] = [];
  #mounted: MountedMcpServer[] = [];
  /** Servers that came back after the start and are still connected. */
  #back: MountedMcpServer[] = [];
  /** Tool names of servers that went away: a view leaves its start copies of them out. */
  readonly #gone = new Set<string>();
  /** The resources of servers that went away: a view leaves its start copies of them out. */
  readonly #goneResources = new Set<PluginResources>();
  #version = 0;
  #main: FollowingLateTools<{ tools: AnyAgentTool[]; resources?: ToolsetResources }> | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #resourceListeners = new Set<() => void>();

  /** The server's own tools: the start toolset's, as servers come and go. */
  get tools(): AnyAgentTool[] {
    return this.#main?.tools ?? [];
  }

  /** The server's own resources (the start toolset's, as servers come and go), once started. */
  get resources(): ToolsetResources | undefined {
    return this.#main?.resources;
  }

  /**
   * Starts serving: `base` are the start toolset's tools (and `resources` its resources),
   * `mounted` the list a returning server joins (serve's named plugins); servers that came back
   * earlier join now.
   */
  start(
    base: AnyAgentTool[],
    build: BuildLateTools,
    mounted: MountedMcpServer[],
    resources?: ToolsetResources,
  ): void {
    this.#main = this.over({ tools: base, ...(resources ? { resources } : {}) }, build);
    this.#mounted = mounted;
    this.#build = build;
    const pending = this.#pending;
    this.#pending = [];
    for (const server of pending) this.add(server);
  }

  /**
   * `toolset` with the late servers' tools: `build` makes them for its context (default: the
   * server's). The result's `tools` is a getter whose array changes only when something did.
   */
  over<T extends { tools: AnyAgentTool[] }>(toolset: T, build?: BuildLateTools): FollowingLateTools<T> {
    const built = new WeakMap<MountedMcpServer, AnyAgentTool[]>();
    const toolsOf = (server: MountedMcpServer): AnyAgentTool[] => {
      let tools = built.get(server);
      if (!tools) {
        tools = (build ?? this.#build)?.(server.plugin) ?? [];
        built.set(server, tools);
      }
      return tools;
    };
    let cache: { base: AnyAgentTool[]; version: number; tools: AnyAgentTool[] } | undefined;
    const current = (): AnyAgentTool[] => {
      const base = toolset.tools;
      if (cache?.base === base && cache.version === this.#version) return cache.tools;
      const kept = base.filter((t) => !this.#gone.has(t.name));
      const taken = new Set(kept.map((t) => t.name));
      const added: AnyAgentTool[] = [];
      for (const server of this.#back) {
        const tools = toolsOf(server);
        for (const tool of tools)
          if (!taken.has(tool.name)) {
            taken.add(tool.name);
            added.push(tool);
          }
      }
      const same = kept.length === base.length && added.length === 0;
      const tools = same ? base : [...kept, ...added];
      // unchanged content keeps the array it had: no needless relisting
      const previous = cache?.tools;
      const unchanged =
        previous !== undefined &&
        previous.length === tools.length &&
        previous.every((t, i) => t === tools[i]);
      cache = { base, version: this.#version, tools: unchanged ? previous : tools };
      return cache.tools;
    };
    // a returning server's resources are served where one of its tools is (as at the start)
    const base = (toolset as { resources?: unknown }).resources;
    const resources =
      base instanceof ToolsetResources
        ? base.derive(
            (served) => [
              ...served.filter((s) => !this.#goneResources.has(s.resources)),
              ...this.#back.flatMap((server): ServedResources[] => {
                const own = server.plugin.resources;
                if (!own || (server.tools.length > 0 && toolsOf(server).length === 0)) return [];
                return [{ pluginId: server.plugin.id, resources: own }];
              }),
            ],
            (listener) => {
              this.#resourceListeners.add(listener);
              return () => this.#resourceListeners.delete(listener);
            },
          )
        : undefined;
    return {
      ...toolset,
      ...(resources ? { resources } : {}),
      get tools() {
        return current();
      },
      onToolsChanged: (listener: () => void) => this.onChange(listener),
    };
  }

  /** A server came back: its tools (those the policy lets through) are served from now on. */
  add(mounted: MountedMcpServer): void {
    if (!this.#build) {
      this.#pending.push(mounted);
      return;
    }
    this.#mounted.push(mounted);
    this.#back.push(mounted);
    this.#changed();
    if (mounted.plugin.resources) this.#resourcesChanged();
  }

  /**
   * A server went away: its tools (and `plugin`'s resources) are no longer served, until it comes
   * back and is added again.
   */
  remove(names: string[], plugin?: ClawtoolsPlugin): void {
    const gone = new Set(names);
    this.#back = this.#back.filter((m) => m.plugin !== plugin && !m.tools.some((name) => gone.has(name)));
    for (const name of names) this.#gone.add(name);
    this.#changed();
    if (plugin?.resources) {
      this.#goneResources.add(plugin.resources);
      this.#resourcesChanged();
    }
  }

  #resourcesChanged(): void {
    for (const listener of [...this.#resourceListeners]) listener();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Listeners are told when the server's own listing changed (the policy is the same in every view). */
  #changed(): void {
    const before = this.tools;
    this.#version += 1;
    if (this.tools === before) return;
    for (const listener of this.#listeners) listener();
  }
}
