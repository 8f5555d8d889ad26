import { watch } from "node:fs";
import path from "node:path";
import {
  type ClawtoolsPlugin,
  definePlugin,
  parseSectionConfig,
  readSectionConfig,
  resolveStateDir,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import pkg from "../package.json" with { type: "json" };
import type { ChunkOptions } from "./chunk.js";
import { type MemoryConfig, memoryConfigSchema, mergeConfig } from "./config.js";
import { createLocalEmbedder } from "./embed/local.js";
import { createOpenAICompatibleEmbedder } from "./embed/openai.js";
import type { EmbeddingProvider } from "./embed/types.js";
import { MemoryIndex } from "./indexer/memory-index.js";
import type { MmrOptions, TemporalDecayOptions } from "./indexer/post-process.js";
import { createMemoryGetTool } from "./tools/memory-get.js";
import { createMemorySearchTool, type MemorySearchOptions } from "./tools/memory-search.js";

export interface MemoryPluginOptions extends MemorySearchOptions {
  /** Default: `config.memory.search.provider`, else the deterministic local embedder. */
  embedder?: EmbeddingProvider;
  extraPaths?: string[];
  /** Default `<stateDir>/memory/<agentId>.sqlite`; a relative path is under the state directory. */
  dbPath?: string;
  chunking?: ChunkOptions;
  /** Re-index on file changes (debounced) in addition to on each search. */
  watch?: boolean;
  watchDebounceMs?: number;
  /** Older daily notes (memory/YYYY-MM-DD.md) weigh less; off by default, half-life 30 days. */
  temporalDecay?: TemporalDecayOptions;
  /** Maximal-marginal-relevance re-ranking for diverse results; off by default, λ 0.7. */
  mmr?: MmrOptions;
  /** Character budget of one memory_get answer (default 12,000). */
  memoryGetMaxChars?: number;
}

/** The options given in code, in `config.memory`'s shape (the embedder object stays apart). */
function configFromOptions(o: MemoryPluginOptions): MemoryConfig {
  const hybrid = { mmr: o.mmr, temporalDecay: o.temporalDecay };
  const search = {
    extraPaths: o.extraPaths,
    store: o.dbPath === undefined ? undefined : { path: o.dbPath },
    chunking: o.chunking,
    sync:
      o.watch === undefined && o.watchDebounceMs === undefined
        ? undefined
        : { watch: o.watch, watchDebounceMs: o.watchDebounceMs },
    query:
      o.maxResults === undefined && o.minScore === undefined && !o.mmr && !o.temporalDecay
        ? undefined
        : {
            maxResults: o.maxResults,
            minScore: o.minScore,
            hybrid: o.mmr || o.temporalDecay ? hybrid : undefined,
          },
  };
  const config = JSON.parse(
    JSON.stringify({
      citations: o.citations === undefined ? undefined : o.citations ? "on" : "off",
      memoryGetMaxChars: o.memoryGetMaxChars,
      search,
    }),
  ) as MemoryConfig;
  if (config.search && Object.keys(config.search).length === 0) delete config.search;
  return config;
}

function embedderFor(config: MemoryConfig): EmbeddingProvider {
  const search = config.search ?? {};
  if ((search.provider ?? "local") === "local")
    return createLocalEmbedder(search.outputDimensionality ? { dims: search.outputDimensionality } : {});
  const apiKey = search.remote?.apiKey ?? process.env.OPENAI_API_KEY;
  return createOpenAICompatibleEmbedder({
    baseUrl: search.remote?.baseUrl ?? "https://api.openai.com/v1",
    ...(apiKey ? { apiKey } : {}),
    ...(search.remote?.headers ? { headers: search.remote.headers } : {}),
    ...(search.model ? { model: search.model } : {}),
    ...(search.outputDimensionality ? { dims: search.outputDimensionality } : {}),
  });
}

/** The memory section: memory_search and memory_get over a persistent hybrid index. */
export function createMemoryPlugin(options: MemoryPluginOptions = {}): ClawtoolsPlugin & { close(): void } {
  const given = configFromOptions(options);
  // validated at creation; nothing to validate (no schema compiled) when no option was given
  const inCode =
    Object.keys(given).length > 0 ? parseSectionConfig("memory", memoryConfigSchema, given) : given;
  const indexes = new Map<string, MemoryIndex>();
  const embedders = new Map<string, EmbeddingProvider>();
  const closers: Array<() => void> = [];

  const workspaceOf = (ctx: ToolContext) => {
    if (!ctx.workspaceDir) throw new ToolUnavailableError("no workspace (set context.workspaceDir)");
    return path.resolve(ctx.workspaceDir);
  };
  const configOf = (ctx: ToolContext): MemoryConfig =>
    readSectionConfig(ctx, "memory", memoryConfigSchema, mergeConfig(ctx.config?.memory ?? {}, inCode));
  const embedderOf = (config: MemoryConfig) => {
    if (options.embedder) return options.embedder;
    const key = JSON.stringify(config.search ?? {});
    let embedder = embedders.get(key);
    if (!embedder) {
      embedder = embedderFor(config);
      embedders.set(key, embedder);
    }
    return embedder;
  };
  const dbPathOf = (ctx: ToolContext, workspaceDir: string, config: MemoryConfig) => {
    const agentId = (ctx.agentId ?? "main").replace(/[^A-Za-z0-9._-]/g, "_");
    const stateDir = ctx.stateDir ?? resolveStateDir({ workspaceDir });
    const configured = config.search?.store?.path?.replaceAll("{agentId}", agentId);
    return path.resolve(stateDir, configured ?? path.join("memory", `${agentId}.sqlite`));
  };
  const indexFor = (ctx: ToolContext, config: MemoryConfig) => {
    const workspaceDir = workspaceOf(ctx);
    const search = config.search ?? {};
    const dbPath = dbPathOf(ctx, workspaceDir, config);
    let index = indexes.get(dbPath);
    if (!index) {
      const hybrid = search.query?.hybrid;
      index = new MemoryIndex({
        workspaceDir,
        dbPath,
        embedder: embedderOf(config),
        ...(search.extraPaths ? { extraPaths: search.extraPaths } : {}),
        ...(search.chunking ? { chunking: search.chunking } : {}),
        ...(search.store?.vector?.enabled === false ? { useSqliteVec: false } : {}),
        ...(hybrid?.vectorWeight !== undefined ? { vectorWeight: hybrid.vectorWeight } : {}),
        ...(hybrid?.textWeight !== undefined ? { textWeight: hybrid.textWeight } : {}),
        ...(hybrid?.temporalDecay ? { temporalDecay: hybrid.temporalDecay } : {}),
        ...(hybrid?.mmr ? { mmr: hybrid.mmr } : {}),
      });
      indexes.set(dbPath, index);
      if (search.sync?.watch)
        closers.push(watchMemory(workspaceDir, index, search.sync.watchDebounceMs ?? 1500));
    }
    return index;
  };
  const close = () => {
    for (const stop of closers.splice(0)) stop();
    for (const index of indexes.values()) index.close();
    indexes.clear();
  };

  const plugin = definePlugin({
    id: "@clawtools/memory",
    version: pkg.version,
    description: "Memory: memory_search and memory_get over a persistent hybrid (FTS5 + vector) index",
    section: "memory",
    configSchema: memoryConfigSchema,
    dispose: close,
    tools: [
      {
        name: "memory_search",
        factory: (ctx) => {
          workspaceOf(ctx);
          const config = configOf(ctx);
          const embedder = embedderOf(config);
          return createMemorySearchTool(() => indexFor(ctx, config), {
            ...(config.search?.query?.maxResults !== undefined
              ? { maxResults: config.search.query.maxResults }
              : {}),
            ...(config.search?.query?.minScore !== undefined
              ? { minScore: config.search.query.minScore }
              : {}),
            citations: config.citations !== "off",
            provider: embedder.id,
            model: embedder.model,
          });
        },
      },
      {
        name: "memory_get",
        factory: (ctx) => {
          const config = configOf(ctx);
          return createMemoryGetTool({
            workspaceDir: workspaceOf(ctx),
            ...(config.search?.extraPaths ? { extraPaths: config.search.extraPaths } : {}),
            ...(config.memoryGetMaxChars ? { maxChars: config.memoryGetMaxChars } : {}),
          });
        },
      },
    ],
  });
  return Object.assign(plugin, { close });
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
        }).unref(),
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
