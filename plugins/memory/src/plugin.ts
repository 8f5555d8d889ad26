import { watch } from "node:fs";
import path from "node:path";
import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  parseSectionConfig,
  readSectionConfig,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import { backgroundClock } from "@clawtools/core/time";
import { resolveStateDir } from "@clawtools/core/state";
import type { ChunkOptions } from "./chunk.js";
import { type MemoryConfig, memoryConfigSchema, mergeConfig } from "./config.js";
import { createLocalEmbedder } from "./embed/local.js";
import { createOpenAICompatibleEmbedder } from "./embed/openai.js";
import type { EmbeddingProvider } from "./embed/types.js";
import type { MemoryBackend, MemoryBackendFactory } from "./backend/types.js";
import { MemoryIndex } from "./indexer/memory-index.js";
import type { MmrOptions, TemporalDecayOptions } from "./indexer/post-process.js";
import { memoryResources } from "./resources.js";
import { createMemoryGetTool } from "./tools/memory-get.js";
import { createMemorySearchTool, type MemorySearchOptions } from "./tools/memory-search.js";

export interface MemoryPluginOptions extends MemorySearchOptions {
  /**
   * Where chunks are stored and searched. Default: a SQLite file per agent (`dbPath`). A factory
   * is called once per agent and workspace; a backend object serves every agent as is (so give
   * one only for a single workspace) and is left open on close: its owner closes it.
   */
  backend?: MemoryBackend | MemoryBackendFactory;
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

const OPENAI_EMBEDDINGS_BASE = "https://api.openai.com/v1";

function embedderFor(config: MemoryConfig): EmbeddingProvider {
  const search = config.search ?? {};
  if ((search.provider ?? "local") === "local")
    return createLocalEmbedder(search.outputDimensionality ? { dims: search.outputDimensionality } : {});
  const baseUrl = search.remote?.baseUrl ?? OPENAI_EMBEDDINGS_BASE;
  // the environment's OpenAI key goes only to OpenAI (or to the base URL the user set for it);
  // another endpoint gets a key only when the configuration names one
  const openai = baseUrl === OPENAI_EMBEDDINGS_BASE || baseUrl === process.env.OPENAI_BASE_URL;
  const apiKey = search.remote?.apiKey ?? (openai ? process.env.OPENAI_API_KEY : undefined);
  return createOpenAICompatibleEmbedder({
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(search.remote?.headers ? { headers: search.remote.headers } : {}),
    ...(search.model ? { model: search.model } : {}),
    ...(search.outputDimensionality ? { dims: search.outputDimensionality } : {}),
  });
}

/** The memory section: memory_search and memory_get over a persistent hybrid index. */
export function createMemoryPlugin(
  options: MemoryPluginOptions = {},
): ClawtoolsPlugin & { close(): Promise<void> } {
  const given = configFromOptions(options);
  // validated at creation; nothing to validate (no schema compiled) when no option was given
  const inCode =
    Object.keys(given).length > 0 ? parseSectionConfig("memory", memoryConfigSchema, given) : given;
  const indexes = new Map<string, Promise<MemoryIndex>>();
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
  const backendOf = async (ctx: ToolContext, workspaceDir: string, dbPath: string, config: MemoryConfig) => {
    const given = options.backend;
    if (given === undefined) return undefined;
    if (typeof given !== "function") return given;
    const backend = await given({
      workspaceDir,
      agentId: ctx.agentId ?? "main",
      embedder: embedderOf(config),
      dbPath,
    });
    for (const method of ["files", "sync", "search", "status", "close"] as const)
      if (typeof backend?.[method] !== "function")
        throw new Error(`the memory backend factory returned no backend (missing ${method}())`);
    return backend;
  };
  const openIndex = async (ctx: ToolContext, config: MemoryConfig, workspaceDir: string, dbPath: string) => {
    const search = config.search ?? {};
    const walker = {
      workspaceDir,
      ...(search.extraPaths ? { extraPaths: search.extraPaths } : {}),
      ...(search.chunking ? { chunking: search.chunking } : {}),
    };
    const backend = await backendOf(ctx, workspaceDir, dbPath, config);
    if (backend)
      return new MemoryIndex({ ...walker, backend, closeBackend: typeof options.backend === "function" });
    const hybrid = search.query?.hybrid;
    return new MemoryIndex({
      ...walker,
      dbPath,
      embedder: embedderOf(config),
      ...(search.store?.vector?.enabled === true ? { useSqliteVec: true } : {}),
      ...(hybrid?.vectorWeight !== undefined ? { vectorWeight: hybrid.vectorWeight } : {}),
      ...(hybrid?.textWeight !== undefined ? { textWeight: hybrid.textWeight } : {}),
      ...(hybrid?.temporalDecay ? { temporalDecay: hybrid.temporalDecay } : {}),
      ...(hybrid?.mmr ? { mmr: hybrid.mmr } : {}),
    });
  };
  /** One index per agent and workspace (keyed by its default SQLite path, which names both). */
  const indexFor = (ctx: ToolContext, config: MemoryConfig): Promise<MemoryIndex> => {
    const workspaceDir = workspaceOf(ctx);
    const dbPath = dbPathOf(ctx, workspaceDir, config);
    let index = indexes.get(dbPath);
    if (!index) {
      index = openIndex(ctx, config, workspaceDir, dbPath).then((opened) => {
        const sync = config.search?.sync;
        if (sync?.watch) closers.push(watchMemory(workspaceDir, opened, sync.watchDebounceMs ?? 1500));
        return opened;
      });
      indexes.set(dbPath, index);
      // a failed opening is not cached: the next call tries again
      const opening = index;
      opening.catch(() => {
        if (indexes.get(dbPath) === opening) indexes.delete(dbPath);
      });
    }
    return index;
  };
  /** Closes every index, also those still opening (each waits for its opening, then closes). */
  const close = async () => {
    const opening = [...indexes.values()];
    indexes.clear();
    await Promise.all(
      opening.map((index) =>
        index.then(
          (opened) => opened.close(),
          () => undefined,
        ),
      ),
    );
    // watchers start when an index opens: stop them after every opening settled
    for (const stop of closers.splice(0)) stop();
  };

  // the options were checked above (the context's config merges with them: configOf)
  return defineSectionPlugin({
    module: import.meta.url,
    description: "Memory: memory_search and memory_get over a persistent hybrid (FTS5 + vector) index",
    section: "memory",
    configSchema: memoryConfigSchema,
    dispose: close,
    tools: () => [
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
    // the memory files of each client's workspace, read under memory_get's rules
    resources: memoryResources((ctx) => {
      if (!ctx.workspaceDir) return undefined;
      const config = configOf(ctx);
      return {
        workspaceDir: path.resolve(ctx.workspaceDir),
        ...(config.search?.extraPaths ? { extraPaths: config.search.extraPaths } : {}),
      };
    }),
    members: { close },
  });
}

function watchMemory(workspaceDir: string, index: MemoryIndex, debounceMs: number): () => void {
  // a background clock: a pending re-index never holds the process open
  let timer: unknown;
  const schedule = () => {
    backgroundClock.clearTimeout(timer);
    timer = backgroundClock.setTimeout(() => void index.sync().catch(() => {}), debounceMs);
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
    backgroundClock.clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}

export const memoryPlugin = createMemoryPlugin();
export default memoryPlugin;
