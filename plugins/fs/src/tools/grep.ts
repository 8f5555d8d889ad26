import path from "node:path";
import {
  type AgentTool,
  DEFAULT_MAX_BYTES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  type ToolContext,
  ToolInputError,
  type TruncationResult,
  Type,
  truncateHead,
  truncateLine,
} from "@clawtools/core";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { makeGlobMatcher } from "../search/glob.js";
import { walk } from "../search/walk.js";

export const grepSchema = Type.Object({
  pattern: Type.String({ description: "Search pattern (regex or literal string)" }),
  path: Type.Optional(
    Type.String({ description: "Directory or file to search (default: current directory)" }),
  ),
  glob: Type.Optional(
    Type.String({ description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" }),
  ),
  ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
  literal: Type.Optional(
    Type.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" }),
  ),
  context: Type.Optional(
    Type.Number({ description: "Number of lines to show before and after each match (default: 0)" }),
  ),
  limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

export interface GrepDetails {
  matchLimitReached?: number;
  truncation?: TruncationResult;
  linesTruncated?: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(literal ? escapeRegExp(pattern) : pattern, ignoreCase ? "i" : "");
  } catch (error) {
    throw new ToolInputError(
      `Invalid regex pattern: ${(error as Error).message}. Use literal=true to search for the text as is.`,
    );
  }
}

const READ_AHEAD = 32;

/** A file is treated as binary (and skipped, like rg) when its first 8 KB hold a NUL byte. */
const isBinary = (data: Buffer) => data.subarray(0, 8192).includes(0);

export function createGrepTool(
  ctx: ToolContext = {},
  options: FsToolOptions = {},
): AgentTool<typeof grepSchema, GrepDetails | undefined> {
  const env = resolveFsEnv(ctx, options);
  return {
    name: "grep",
    label: "grep",
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to 100 matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    parameters: grepSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      const abs = env.resolve(params.path || ".");
      const limit = Math.max(1, Math.floor(params.limit ?? 100));
      const context = Math.max(0, Math.floor(params.context ?? 0));
      const re = compile(params.pattern, params.literal ?? false, params.ignoreCase ?? false);
      const stat = await env.bridge.stat({ filePath: abs });
      if (!stat) throw new ToolInputError(`Path not found: ${abs}`);
      const globMatch = params.glob ? makeGlobMatcher(params.glob) : undefined;

      const files: Array<{ abs: string; label: string }> = [];
      if (stat.type === "file") files.push({ abs, label: path.basename(abs) });
      else {
        for await (const entry of walk(env.bridge, abs, signal)) {
          if (entry.type === "file" && (!globMatch || globMatch(entry.rel)))
            files.push({ abs: entry.abs, label: entry.rel });
        }
      }

      const out: string[] = [];
      let matchCount = 0;
      let limited = false;
      let linesTruncated = false;
      const fmt = (label: string, n: number, sep: ":" | "-", text: string) => {
        const cut = truncateLine(text, GREP_MAX_LINE_LENGTH);
        if (cut.wasTruncated) linesTruncated = true;
        return `${label}${sep}${n}${sep} ${cut.text}`;
      };
      // files are read ahead in parallel; output stays in walk order
      const reads = new Map<number, Promise<Buffer | null>>();
      const readAhead = (i: number) => {
        const file = files[i];
        if (file && !reads.has(i))
          reads.set(
            i,
            env.bridge.readFile({ filePath: file.abs }).catch(() => null),
          );
      };
      for (let i = 0; i < READ_AHEAD; i++) readAhead(i);
      for (const [fileIndex, file] of files.entries()) {
        if (limited) break;
        throwIfAborted(signal);
        readAhead(fileIndex);
        const data = await reads.get(fileIndex)!;
        reads.delete(fileIndex);
        readAhead(fileIndex + READ_AHEAD);
        if (!data || isBinary(data)) continue;
        const lines = data.toString("utf8").replace(/\r\n/g, "\n").split("\n");
        let lastShown = -1;
        for (let i = 0; i < lines.length; i++) {
          if (!re.test(lines[i]!)) continue;
          if (matchCount >= limit) {
            limited = true;
            break;
          }
          matchCount++;
          const from = Math.max(lastShown + 1, i - context);
          for (let k = from; k < i; k++) out.push(fmt(file.label, k + 1, "-", lines[k]!));
          out.push(fmt(file.label, i + 1, ":", lines[i]!));
          lastShown = i;
          for (let k = i + 1; k <= Math.min(lines.length - 1, i + context); k++) {
            if (re.test(lines[k]!)) break;
            out.push(fmt(file.label, k + 1, "-", lines[k]!));
            lastShown = k;
          }
        }
      }
      if (matchCount === 0)
        return { content: [{ type: "text", text: "No matches found" }], details: undefined };
      const truncation = truncateHead(out.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const notices: string[] = [];
      const details: GrepDetails = {};
      if (limited) {
        notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`);
        details.matchLimitReached = limit;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      if (linesTruncated) {
        notices.push(
          `Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`,
        );
        details.linesTruncated = true;
      }
      const text = truncation.content + (notices.length ? `\n\n[${notices.join(". ")}]` : "");
      return { content: [{ type: "text", text }], details: notices.length ? details : undefined };
    },
  };
}
