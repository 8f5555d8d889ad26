import {
  type AgentTool,
  DEFAULT_MAX_BYTES,
  type ToolContext,
  type TruncationResult,
  Type,
} from "@clawtools/core";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { makeGlobMatcher } from "../search/glob.js";
import { walk } from "../search/walk.js";
import { listedDirectory, listingResult } from "./listing.js";

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
      const { abs } = await listedDirectory(env, path, "find searches a directory");
      const cap = Math.max(1, Math.floor(limit ?? 1000));
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
      const notice = `${cap} results limit reached. Use limit=${cap * 2} for more, or refine pattern`;
      return listingResult<FindDetails>(
        found,
        limited ? { notice, details: { resultLimitReached: cap } } : undefined,
      );
    },
  };
}
