import { type AgentTool, jsonResult, optionalStringEnum, Type } from "@clawtools/core";
import { memoryFileLink } from "../resource-links.js";
import type { MemoryIndex } from "../indexer/memory-index.js";
import { MAX_QUERY_CHARS } from "../indexer/search.js";
import type { SyncReport } from "../indexer/sync.js";

export const SEARCH_CORPORA = ["memory", "wiki", "all", "sessions"] as const;

export const memorySearchSchema = Type.Object(
  {
    query: Type.String({
      description: `What to look for in memory (natural language or keywords; the first ${MAX_QUERY_CHARS} characters are searched).`,
    }),
    maxResults: Type.Optional(
      Type.Integer({ description: "Maximum results (default 6).", minimum: 1, maximum: 50 }),
    ),
    minScore: Type.Optional(
      Type.Number({ description: "Minimum score 0..1 (default 0.35).", minimum: 0, maximum: 1 }),
    ),
    corpus: optionalStringEnum(SEARCH_CORPORA, {
      description:
        "memory (default) searches memory files; all adds compiled-wiki supplements (none are registered here); wiki searches only those; sessions searches session transcripts (not indexed here).",
    }),
  },
  { additionalProperties: false },
);

const SNIPPET_CHARS = 700;
const WIKI_NOT_REGISTERED = "Wiki corpus is not registered; results do not cover that requested corpus.";

export interface MemorySearchOptions {
  maxResults?: number;
  minScore?: number;
  /** Append `Source: path#Lx-Ly` to each snippet (default true). */
  citations?: boolean;
}

/** What the model should know about this call besides its results. */
function warningsOf(
  sync: SyncReport,
  outcome: Awaited<ReturnType<MemoryIndex["search"]>>,
  recovered: SyncReport["recovered"],
): string[] {
  const out: string[] = [];
  if (recovered)
    out.push(
      `The memory index was corrupt (${recovered.reason}); it was moved to ${recovered.movedTo} and rebuilt from the memory files.`,
    );
  if (outcome.fallback)
    out.push(
      `Embedding provider ${outcome.fallback.from} failed (${outcome.fallback.reason}); results come from keyword search only.`,
    );
  else if (sync.embeddingError)
    out.push(
      `Some memory chunks could not be embedded (${sync.embeddingError}); they are found by keyword only until the next sync.`,
    );
  if (outcome.queryTruncated)
    out.push(
      `The query is ${outcome.queryTruncated.length} characters; only the first ${outcome.queryTruncated.searched} were searched.`,
    );
  if (sync.skipped.length > 0) {
    const listed = sync.skipped.slice(0, 3).map((s) => `${s.path} (${s.reason})`);
    const more = sync.skipped.length > 3 ? ` and ${sync.skipped.length - 3} more` : "";
    out.push(`Not searched: ${listed.join("; ")}${more}.`);
  }
  return out;
}

/** memory_search over a MemoryIndex (any backend): syncs incrementally, then hybrid search; never throws on provider failure. */
export function createMemorySearchTool(
  getIndex: () => MemoryIndex | Promise<MemoryIndex>,
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
      const citations = options.citations ?? true;
      if (params.corpus === "sessions")
        return jsonResult({
          results: [],
          disabled: true,
          unavailable: true,
          error: "Session transcript search is not enabled.",
          warning: "Session transcript search is unavailable for this agent.",
          action:
            "Use sessions_history to read a session's messages; memory_search covers memory files only.",
        });
      if (params.corpus === "wiki")
        return jsonResult({
          results: [],
          provider: options.provider,
          model: options.model,
          fallback: null,
          citations: citations ? "on" : "off",
          corpora: [{ corpus: "wiki", outcome: "not-registered" }],
          warning: WIKI_NOT_REGISTERED,
        });
      const index = await getIndex();
      const sync = await index.sync(signal);
      const outcome = await index.search(params.query, {
        maxResults: params.maxResults ?? options.maxResults ?? 6,
        minScore: params.minScore ?? options.minScore ?? 0.35,
        ...(signal ? { signal } : {}),
      });
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
      const warnings = warningsOf(sync, outcome, sync.recovered ?? index.takeRecovery());
      const answer = jsonResult({
        results,
        provider: options.provider,
        model: options.model,
        fallback: outcome.fallback
          ? { from: outcome.fallback.from, to: "keyword", reason: outcome.fallback.reason }
          : null,
        citations: citations ? "on" : "off",
        mode: outcome.mode,
        ...(params.corpus === "all"
          ? {
              corpora: [
                { corpus: "memory", outcome: "ok" },
                { corpus: "wiki", outcome: "not-registered" },
              ],
            }
          : {}),
        ...(warnings.length > 0 ? { warning: warnings.join(" ") } : {}),
      });
      // each file a hit came from, as a resource the host can read whole
      for (const file of new Set(results.map((r) => r.path))) answer.content.push(memoryFileLink(file));
      return answer;
    },
  };
}
