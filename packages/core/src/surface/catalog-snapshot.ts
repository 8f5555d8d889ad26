import type { ToolMeta } from "../catalog.js";
import { ToolInputError } from "../errors.js";
import type { AnyAgentTool } from "../tool.js";
import { Bm25Index } from "./bm25.js";
import { type CatalogEntry, parameterText, SURFACE_TOOL_NAMES, toCatalogEntry } from "./catalog.js";
import { queryTerms, splitWords } from "./words.js";

/** The catalog a surface searches: the assembled (policy-filtered, wrapped) tools and their metadata. */
export type SurfaceCatalog = {
  tools: readonly AnyAgentTool[];
  meta?: (name: string) => ToolMeta | undefined;
};

/** One snapshot of a catalog: entries, the lexical index, and the lookups by id and name. */
export class CatalogSnapshot {
  readonly entries: CatalogEntry[];
  private readonly index: Bm25Index;
  private readonly byId = new Map<string, CatalogEntry>();
  private readonly byName = new Map<string, CatalogEntry[]>();

  /** `recovery`: the sentence an unknown id's error ends with (how to find the tool on this surface). */
  constructor(
    catalog: SurfaceCatalog,
    private readonly recovery: string,
  ) {
    this.entries = catalog.tools
      .filter((tool) => !SURFACE_TOOL_NAMES.has(tool.name))
      .map((tool) => toCatalogEntry(tool, catalog.meta?.(tool.name)));
    // untrusted (MCP) tools are matched on name and description only: their schemas are not indexed
    this.index = new Bm25Index(
      this.entries.map((e) =>
        [
          e.name,
          e.name.replace(/[_-]+/g, " "),
          e.label ?? "",
          e.description,
          e.source === "mcp" ? "" : parameterText(e.parameters),
        ].join(" "),
      ),
    );
    for (const entry of this.entries) {
      this.byId.set(entry.id, entry);
      this.byName.set(entry.name, [...(this.byName.get(entry.name) ?? []), entry]);
    }
  }

  search(query: string, limit: number): CatalogEntry[] {
    const needle = query.trim();
    // an exact id or name is honoured even when it has no indexable words
    const exact = this.byId.get(needle) ?? this.byName.get(needle)?.[0];
    const weights = queryTerms(needle);
    const scores = this.index.score(weights);
    const ranked = [...scores.entries()]
      .sort((a, b) => b[1] - a[1] || this.entries[a[0]]!.name.localeCompare(this.entries[b[0]]!.name))
      .map(([i]) => this.entries[i]!);
    // a name the query spells (as a word) ranks first: "read a file" → read
    const words = new Set(splitWords(needle));
    const named = ranked.filter((e) => words.has(e.name.toLowerCase()));
    const ordered = [...(exact ? [exact] : []), ...named, ...ranked];
    return [...new Set(ordered)].slice(0, limit);
  }

  find(selector: string): CatalogEntry {
    const byId = this.byId.get(selector);
    if (byId) return byId;
    const named = this.byName.get(selector) ?? [];
    if (named.length > 1)
      throw new ToolInputError(
        `Ambiguous tool name: ${selector}; use an exact tool id (${named.map((e) => e.id).join(", ")}).`,
      );
    if (named[0]) return named[0];
    // near spellings first ("exce" → exec), then what a search for the words finds
    const near = this.entries.filter((e) => editDistance(e.name, selector, 2) <= 2);
    const suggestions = [...new Set([...near, ...this.search(selector, 3)])]
      .slice(0, 3)
      .map((e) => ((this.byName.get(e.name)?.length ?? 0) > 1 ? e.id : e.name));
    throw new ToolInputError(
      `Unknown tool id: ${selector}.${suggestions.length ? ` Did you mean: ${suggestions.join(", ")}?` : ""} ${this.recovery}`,
    );
  }
}

/** Levenshtein distance, stopping early once it exceeds `max` (names are short). */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    if (Math.min(...row) > max) return max + 1;
    previous = row;
  }
  return previous[b.length]!;
}
