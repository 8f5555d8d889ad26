import { watch } from "node:fs";
import path from "node:path";
import { type ClawtoolsPlugin, definePlugin, type ToolContext, ToolUnavailableError } from "@clawtools/core";
import type { ChunkOptions } from "./chunk.js";
import { createLocalEmbedder } from "./embed/local.js";
import type { EmbeddingProvider } from "./embed/types.js";
import { MemoryIndex } from "./indexer/memory-index.js";
import type { MmrOptions, TemporalDecayOptions } from "./indexer/post-process.js";
import { createMemoryGetTool } from "./tools/memory-get.js";
import { createMemorySearchTool, type MemorySearchOptions } from "./tools/memory-search.js";

export interface MemoryPluginOptions extends MemorySearchOptions {
  /** Default: the deterministic local embedder (no network, no model download). */
  embedder?: EmbeddingProvider;
  extraPaths?: string[];
  /** Default `<agentDir>/memory/<agentId>.sqlite`, agentDir defaulting to `<workspace>/.clawtools`. */
  dbPath?: string;
  chunking?: ChunkOptions;
  /** Re-index on file changes (debounced) in addition to on each search. */
  watch?: boolean;
  watchDebounceMs?: number;
  /** Older daily notes (memory/YYYY-MM-DD.md) weigh less; off by default, half-life 30 days. */
  temporalDecay?: TemporalDecayOptions;
  /** Maximal-marginal-relevance re-ranking for diverse results; off by default, λ 0.7. */
  mmr?: MmrOptions;
}

/** The memory section: memory_search and memory_get over a persistent hybrid index. */
export function createMemoryPlugin(options: MemoryPluginOptions = {}): ClawtoolsPlugin & { close(): void } {
  const embedder = options.embedder ?? createLocalEmbedder();
  const indexes = new Map<string, MemoryIndex>();
  const closers: Array<() => void> = [];

  const workspaceOf = (ctx: ToolContext) => {
    if (!ctx.workspaceDir) throw new ToolUnavailableError("no workspace (set context.workspaceDir)");
    return path.resolve(ctx.workspaceDir);
  };
  const indexFor = (ctx: ToolContext) => {
    const workspaceDir = workspaceOf(ctx);
    const agentDir = ctx.agentDir ?? path.join(workspaceDir, ".clawtools");
    const dbPath = options.dbPath ?? path.join(agentDir, "memory", `${ctx.agentId ?? "main"}.sqlite`);
    let index = indexes.get(dbPath);
    if (!index) {
      index = new MemoryIndex({
        workspaceDir,
        dbPath,
        embedder,
        ...(options.extraPaths ? { extraPaths: options.extraPaths } : {}),
        ...(options.chunking ? { chunking: options.chunking } : {}),
        ...(options.temporalDecay ? { temporalDecay: options.temporalDecay } : {}),
        ...(options.mmr ? { mmr: options.mmr } : {}),
      });
      indexes.set(dbPath, index);
      if (options.watch) closers.push(watchMemory(workspaceDir, index, options.watchDebounceMs ?? 1500));
    }
    return index;
  };

  const plugin = definePlugin({
    id: "@clawtools/memory",
    version: "0.1.0",
    description: "Memory: memory_search and memory_get over a persistent hybrid (FTS5 + vector) index",
    section: "memory",
    tools: [
      {
        name: "memory_search",
        factory: (ctx) => {
          workspaceOf(ctx);
          return createMemorySearchTool(() => indexFor(ctx), {
            ...options,
            provider: embedder.id,
            model: embedder.model,
          });
        },
      },
      {
        name: "memory_get",
        factory: (ctx) =>
          createMemoryGetTool({
            workspaceDir: workspaceOf(ctx),
            ...(options.extraPaths ? { extraPaths: options.extraPaths } : {}),
          }),
      },
    ],
  });
  return Object.assign(plugin, {
    close() {
      for (const close of closers.splice(0)) close();
      for (const index of indexes.values()) index.close();
      indexes.clear();
    },
  });
}

function watchMemory(workspaceDir: string, index: MemoryIndex, debounceMs: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void index.sync().catch(() => {}), debounceMs);
    timer.unref();
  };
  const watchers = [workspaceDir, path.join(workspaceDir, "memory")].flatMap((dir) => {
    try {
      return [
        watch(dir, { recursive: dir.endsWith("memory") }, (_event, file) => {
          if (!file || String(file).toLowerCase().endsWith(".md")) schedule();
        }),
      ];
    } catch {
      return [];
    }
  });
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}

export const memoryPlugin = createMemoryPlugin();
export default memoryPlugin;
