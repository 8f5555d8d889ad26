import { type AgentTool, jsonResult, Type } from "@clawtools/core";
import type { MemoryIndex } from "../indexer/memory-index.js";

export const memorySearchSchema = Type.Object({
  query: Type.String({ description: "What to look for in memory (natural language or keywords)." }),
  maxResults: Type.Optional(
    Type.Number({ description: "Maximum results (default 6).", minimum: 1, maximum: 50 }),
  ),
  minScore: Type.Optional(
    Type.Number({ description: "Minimum score 0..1 (default 0.35).", minimum: 0, maximum: 1 }),
  ),
});

const SNIPPET_CHARS = 700;

export interface MemorySearchOptions {
  maxResults?: number;
  minScore?: number;
  /** Append `Source: path#Lx-Ly` to each snippet (default true). */
  citations?: boolean;
}

/** memory_search over a MemoryIndex: syncs incrementally, then hybrid search; never throws on provider failure. */
export function createMemorySearchTool(
  getIndex: () => MemoryIndex,
  options: MemorySearchOptions & { provider: string; model: string },
): AgentTool<typeof memorySearchSchema, unknown> {
  return {
    name: "memory_search",
    label: "memory_search",
    description:
      "Mandatory recall step: semantically search MEMORY.md + memory/*.md before answering questions about prior work, decisions, dates, people, preferences, or todos; returns top snippets with path + lines.",
    parameters: memorySearchSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      const index = getIndex();
      const sync = await index.sync(signal);
      const outcome = await index.search(params.query, {
        maxResults: Math.floor(params.maxResults ?? options.maxResults ?? 6),
        minScore: params.minScore ?? options.minScore ?? 0.35,
        ...(signal ? { signal } : {}),
      });
      const citations = options.citations ?? true;
      const results = outcome.hits.map((hit) => {
        const citation = `${hit.path}#L${hit.startLine}-L${hit.endLine}`;
        const snippet = hit.text.length > SNIPPET_CHARS ? `${hit.text.slice(0, SNIPPET_CHARS)}…` : hit.text;
        return {
          path: hit.path,
          startLine: hit.startLine,
          endLine: hit.endLine,
          score: Number(hit.score.toFixed(4)),
          snippet: citations ? `${snippet}\n\nSource: ${citation}` : snippet,
          source: "memory",
          citation,
        };
      });
      const warning = outcome.fallback
        ? `Embedding provider ${outcome.fallback.from} failed (${outcome.fallback.reason}); results come from keyword search only.`
        : sync.embeddingError
          ? `Some memory chunks could not be embedded (${sync.embeddingError}); they are found by keyword only until the next sync.`
          : undefined;
      return jsonResult({
        results,
        provider: options.provider,
        model: options.model,
        fallback: outcome.fallback
          ? { from: outcome.fallback.from, to: "keyword", reason: outcome.fallback.reason }
          : null,
        citations: citations ? "on" : "off",
        mode: outcome.mode,
        ...(warning ? { warning } : {}),
      });
    },
  };
}
