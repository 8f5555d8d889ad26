import path from "node:path";
import { type AgentTool, jsonResult, optionalStringEnum, ToolInputError, Type } from "@clawtools/core";
import { quotePath } from "@clawtools/core/safety";
import { readMemoryFile, rootFor } from "../indexer/files.js";
import { memoryFileLink } from "../resource-links.js";

export const MEMORY_CORPORA = ["memory", "wiki", "all"] as const;

export const memoryGetSchema = Type.Object(
  {
    path: Type.String({
      description: "Memory file path from memory_search (e.g. MEMORY.md or memory/2026-01-02.md).",
    }),
    from: Type.Optional(Type.Integer({ description: "First line to return (1-based).", minimum: 1 })),
    lines: Type.Optional(
      Type.Integer({ description: "Number of lines to return (default 120).", minimum: 1 }),
    ),
    corpus: optionalStringEnum(MEMORY_CORPORA, {
      description:
        "memory (default) reads memory files; wiki reads compiled-wiki supplements (none are registered here); all tries both.",
    }),
  },
  { additionalProperties: false },
);

/** Lines returned when `lines` is not given, and the character budget of one answer (OpenClaw's). */
export const DEFAULT_MEMORY_GET_LINES = 120;
export const DEFAULT_MEMORY_GET_MAX_CHARS = 12_000;
/** Longer paths are refused before any file-system access. */
export const MAX_MEMORY_PATH_CHARS = 4096;

export interface MemoryGetOptions {
  workspaceDir: string;
  extraPaths?: string[];
  /** Character budget of one answer (default 12,000); longer excerpts end with a continuation notice. */
  maxChars?: number;
}

const inside = (root: string, target: string) => {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/** Is `abs` one of the files memory tools may read? (Lexical; the open refuses links.) */
export function isMemoryPath(abs: string, options: MemoryGetOptions): boolean {
  if (!abs.toLowerCase().endsWith(".md")) return false;
  const ws = path.resolve(options.workspaceDir);
  if (abs === path.join(ws, "MEMORY.md") || abs === path.join(ws, "memory.md")) return true;
  if (inside(path.join(ws, "memory"), abs) && abs !== path.join(ws, "memory")) return true;
  return (options.extraPaths ?? []).some((extra) => {
    const e = path.resolve(ws, extra);
    return abs === e || inside(e, abs);
  });
}

/** The extra path (file or directory) that `abs` belongs to, when it is outside the workspace. */
function extraRootOf(abs: string, options: MemoryGetOptions): string | undefined {
  const ws = path.resolve(options.workspaceDir);
  for (const extra of options.extraPaths ?? []) {
    const e = path.resolve(ws, extra);
    if (abs === e) return path.dirname(e);
    if (inside(e, abs)) return e;
  }
  return undefined;
}

/** Cuts a string to `max` UTF-16 units without splitting a surrogate pair. */
function cutUtf16(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

export interface MemoryExcerpt {
  status: "ok";
  path: string;
  text: string;
  from: number;
  lines: number;
  truncated?: true;
  nextFrom?: number;
}

/**
 * OpenClaw 9.6's excerpt: `lines` lines from `from` (default 120), whole lines within the
 * character budget; when more remains, the text ends with a notice naming the next `from`.
 * A single line over the budget is cut, with advice to read the file itself.
 */
export function buildExcerpt(params: {
  content: string;
  path: string;
  from?: number | undefined;
  lines?: number | undefined;
  maxChars: number;
  suggestRead: boolean;
}): MemoryExcerpt {
  const all = params.content.split("\n");
  if (all.at(-1) === "") all.pop(); // a final newline ends the last line, it does not start one
  const from = Math.max(1, Math.floor(params.from ?? 1));
  const count = Math.max(1, Math.floor(params.lines ?? DEFAULT_MEMORY_GET_LINES));
  const selected = all.slice(from - 1, from - 1 + count);
  let included = 0;
  let chars = 0;
  for (const line of selected) {
    const next = chars + line.length + (included > 0 ? 1 : 0);
    if (included > 0 && next > params.maxChars) break;
    included++;
    chars = next;
  }
  const cutLine = chars > params.maxChars;
  const text = cutUtf16(selected.slice(0, included).join("\n"), params.maxChars);
  const moreRemain = from - 1 + included < all.length;
  const nextFrom = moreRemain ? from + included : undefined;
  const truncated = cutLine || moreRemain;
  let notice = "";
  if (truncated) {
    const base =
      nextFrom !== undefined
        ? `More content available. Use from=${nextFrom} to continue.`
        : "More content available. Requested excerpt exceeded the default maxChars budget.";
    const advice =
      cutLine && params.suggestRead ? " If you need the full raw line, use read on the source file." : "";
    notice = `\n\n[${base}${advice}]`;
  }
  return {
    status: "ok",
    path: params.path,
    text: text + notice,
    from,
    lines: included,
    ...(truncated ? { truncated: true as const } : {}),
    ...(nextFrom !== undefined ? { nextFrom } : {}),
  };
}

const WIKI_NOT_REGISTERED = "Wiki corpus is not registered; results do not cover that requested corpus.";

/** memory_get: reads a memory file (or a line range of it); other files and links are refused. */
export function createMemoryGetTool(options: MemoryGetOptions): AgentTool<typeof memoryGetSchema, unknown> {
  const maxChars = options.maxChars ?? DEFAULT_MEMORY_GET_MAX_CHARS;
  const read = async (input: string, from?: number, lines?: number) => {
    const abs = path.resolve(options.workspaceDir, input);
    if (!isMemoryPath(abs, options)) {
      throw new ToolInputError(
        `memory_get only reads memory files (MEMORY.md, memory.md, memory/**/*.md or configured extra paths) inside the workspace: ${quotePath(input)}`,
      );
    }
    const place = await rootFor(options.workspaceDir, abs, extraRootOf(abs, options));
    const shown = place && !place.root.shown ? place.target : abs;
    if (!place) return { status: "not_found" as const, path: shown, text: "" };
    try {
      const file = await readMemoryFile({
        root: place.root.root,
        target: place.target,
        real: path.join(place.root.real, place.target),
        rel: input,
      });
      return buildExcerpt({
        content: file.text,
        path: shown,
        from,
        lines,
        maxChars,
        suggestRead: !place.root.shown,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR")
        return { status: "not_found" as const, path: shown, text: "" };
      throw error;
    }
  };
  return {
    name: "memory_get",
    label: "memory_get",
    description:
      "Safe exact excerpt read from MEMORY.md or memory/*.md: a bounded excerpt (120 lines) by default, from/lines for a range; says when more content exists and where to continue. status=ok means the excerpt was read; status=not_found means the file does not exist.",
    parameters: memoryGetSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      const input = params.path?.trim();
      if (!input) throw new ToolInputError("path required");
      if (input.length > MAX_MEMORY_PATH_CHARS)
        throw new ToolInputError(
          `path is ${input.length} characters; memory paths are at most ${MAX_MEMORY_PATH_CHARS}: ${quotePath(input)}`,
        );
      if (params.corpus === "wiki")
        return jsonResult({
          path: input,
          text: "",
          corpora: [{ corpus: "wiki", outcome: "not-registered" }],
          warning: WIKI_NOT_REGISTERED,
        });
      const result = await read(input, params.from, params.lines);
      if (params.corpus === "all")
        return jsonResult({
          ...result,
          corpora: [
            { corpus: "memory", outcome: "ok" },
            { corpus: "wiki", outcome: "not-registered" },
          ],
        });
      const answer = jsonResult(result);
      // the whole file, as a resource the host can read (the excerpt is bounded)
      if (result.status === "ok") answer.content.push(memoryFileLink(result.path));
      return answer;
    },
  };
}
