import {
  type AgentTool,
  DEFAULT_MAX_BYTES,
  formatSize,
  type ToolContext,
  ToolInputError,
  type TruncationResult,
  Type,
  truncateHead,
} from "@clawtools/core";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { displayPath } from "../paths.js";
import { makeGlobMatcher } from "../search/glob.js";
import { walk } from "../search/walk.js";
import { checkPathArg } from "./messages.js";

export const findSchema = Type.Object(
  {
    pattern: Type.String({
      description:
        "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'; a leading '!' excludes",
    }),
    path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
    limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
  },
  { additionalProperties: false },
);

export interface FindDetails {
  resultLimitReached?: number;
  truncation?: TruncationResult;
}

export function createFindTool(
  ctx: ToolContext = {},
  options: FsToolOptions = {},
): AgentTool<typeof findSchema, FindDetails | undefined> {
  const env = resolveFsEnv(ctx, options);
  return {
    name: "find",
    label: "find",
    description: `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to 1000 results or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    parameters: findSchema,
    async execute(_id, { pattern, path, limit }, signal) {
      throwIfAborted(signal);
      checkPathArg("path", path);
      const abs = env.resolve(path || ".");
      const cap = Math.max(1, Math.floor(limit ?? 1000));
      const stat = await env.bridge.stat({ filePath: abs });
      const shown = displayPath(env.root, abs);
      if (!stat) throw new ToolInputError(`Path not found: ${shown}.`);
      if (stat.type !== "directory")
        throw new ToolInputError(
          `Not a directory: ${shown}. find searches a directory; use read for a file.`,
        );
      const matches = makeGlobMatcher(pattern);
      const found: string[] = [];
      let limited = false;
      for await (const entry of walk(env.bridge, abs, signal)) {
        if (!matches(entry.rel)) continue;
        if (found.length >= cap) {
          limited = true;
          break;
        }
        found.push(entry.type === "directory" ? `${entry.rel}/` : entry.rel);
      }
      if (found.length === 0)
        return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };
      const truncation = truncateHead(found.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const notices: string[] = [];
      const details: FindDetails = {};
      if (limited) {
        notices.push(`${cap} results limit reached. Use limit=${cap * 2} for more, or refine pattern`);
        details.resultLimitReached = cap;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      const text = truncation.content + (notices.length ? `\n\n[${notices.join(". ")}]` : "");
      return { content: [{ type: "text", text }], details: notices.length ? details : undefined };
    },
  };
}
