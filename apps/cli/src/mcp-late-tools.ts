import type { AnyAgentTool, ClawtoolsPlugin } from "@clawtools/core";
import type { MountedMcpServer } from "./mcp-servers.js";

/**
 * The tools serve offers when MCP servers come back after the start: the start toolset's, then
 * each returning server's (built by `build` through the same policy). The array is replaced on
 * each change (the MCP server rebuilds its listing when the array changes) and listeners are told,
 * so connected clients get `notifications/tools/list_changed`.
 */
export class LateMcpTools {
  #tools: AnyAgentTool[];
  #build: ((plugin: ClawtoolsPlugin) => AnyAgentTool[]) | undefined;
  #pending: MountedMcpServer[] = [];
  #mounted: MountedMcpServer[] = [];
  readonly #listeners = new Set<() => void>();

  constructor() {
    this.#tools = [];
  }

  get tools(): AnyAgentTool[] {
    return this.#tools;
  }

  /**
   * Starts serving: `base` are the start toolset's tools, `mounted` the list a returning server
   * joins (serve's named plugins); servers that came back earlier join now.
   */
  start(
    base: AnyAgentTool[],
    build: (plugin: ClawtoolsPlugin) => AnyAgentTool[],
    mounted: MountedMcpServer[],
  ): void {
    this.#tools = base;
    this.#mounted = mounted;
    this.#build = build;
    const pending = this.#pending;
    this.#pending = [];
    for (const mounted of pending) this.add(mounted);
  }

  /** A server came back: its tools (those the policy lets through) are served from now on. */
  add(mounted: MountedMcpServer): void {
    if (!this.#build) {
      this.#pending.push(mounted);
      return;
    }
    this.#mounted.push(mounted);
    const taken = new Set(this.#tools.map((t) => t.name));
    const added = this.#build(mounted.plugin).filter((t) => !taken.has(t.name));
    if (added.length === 0) return;
    this.#tools = [...this.#tools, ...added];
    for (const listener of this.#listeners) listener();
  }

  /** A server went away: its tools are no longer served (until it comes back and is added again). */
  remove(names: string[]): void {
    const gone = new Set(names);
    const kept = this.#tools.filter((t) => !gone.has(t.name));
    if (kept.length === this.#tools.length) return;
    this.#tools = kept;
    for (const listener of this.#listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
