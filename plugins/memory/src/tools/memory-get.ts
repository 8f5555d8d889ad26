import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { type AgentTool, jsonResult, ToolInputError, Type } from "@clawtools/core";

export const memoryGetSchema = Type.Object({
  path: Type.String({
    description: "Memory file path from memory_search (e.g. MEMORY.md or memory/2026-01-02.md).",
  }),
  from: Type.Optional(Type.Number({ description: "First line to return (1-based).", minimum: 1 })),
  lines: Type.Optional(Type.Number({ description: "Number of lines to return.", minimum: 1 })),
});

export interface MemoryGetOptions {
  workspaceDir: string;
  extraPaths?: string[];
}

const inside = (root: string, target: string) => {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/** Is `abs` one of the files memory tools may read? */
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

/** memory_get: reads a memory file (or a line range of it); other files are refused. */
export function createMemoryGetTool(options: MemoryGetOptions): AgentTool<typeof memoryGetSchema, unknown> {
  return {
    name: "memory_get",
    label: "memory_get",
    description:
      "Safe snippet read from MEMORY.md or memory/*.md with optional from/lines; use after memory_search to pull only the needed lines and keep context small.",
    parameters: memoryGetSchema,
    async execute(_id, params, signal) {
      signal?.throwIfAborted();
      const input = params.path?.trim();
      if (!input) throw new ToolInputError("path required");
      const abs = path.resolve(options.workspaceDir, input);
      if (!isMemoryPath(abs, options)) {
        throw new ToolInputError(
          `memory_get only reads memory files (MEMORY.md, memory.md, memory/**/*.md or configured extra paths) inside the workspace: ${input}`,
        );
      }
      const st = await lstat(abs).catch(() => undefined);
      if (st?.isSymbolicLink()) throw new ToolInputError(`memory_get does not follow symlinks: ${input}`);
      if (!st) return jsonResult({ path: input, text: "" });
      const text = await readFile(abs, "utf8");
      if (params.from === undefined && params.lines === undefined) return jsonResult({ path: input, text });
      const from = Math.max(1, Math.floor(params.from ?? 1));
      const all = text.split("\n");
      const count = params.lines !== undefined ? Math.max(1, Math.floor(params.lines)) : all.length;
      return jsonResult({
        path: input,
        from,
        lines: count,
        text: all.slice(from - 1, from - 1 + count).join("\n"),
      });
    },
  };
}
