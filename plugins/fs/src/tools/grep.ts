import {
  type AgentTool,
  DEFAULT_MAX_BYTES,
  GREP_MAX_LINE_LENGTH,
  type ToolContext,
  ToolInputError,
  Type,
} from "@clawtools/core";
import { isNodeBridge, type NodeBridge } from "../bridge/node-bridge.js";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { displayPath } from "../paths.js";
import { type GrepQuery, grepWithBridge } from "../search/grep-js.js";
import { type GrepDetails, GrepOutput } from "../search/grep-output.js";
import { grepWithRipgrep } from "../search/grep-rg.js";
import { locateRipgrep } from "../search/ripgrep.js";
import { checkPathArg } from "./messages.js";

export type { GrepDetails } from "../search/grep-output.js";

export const grepSchema = Type.Object(
  {
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
  },
  { additionalProperties: false },
);

export interface GrepToolOptions extends FsToolOptions {
  /**
   * The ripgrep binary to search the local disk with, or `false` for the built-in engine only.
   * Default: `RG_PATH`, then `@vscode/ripgrep`, then `rg` on PATH. Other bridges always use the
   * built-in engine, which gives the same results.
   */
  ripgrep?: string | false;
  /** Deadline of the built-in engine's regex worker for one file (default 10 s). */
  regexTimeoutMs?: number;
}

export function createGrepTool(
  ctx: ToolContext = {},
  options: GrepToolOptions = {},
): AgentTool<typeof grepSchema, GrepDetails | undefined> {
  const env = resolveFsEnv(ctx, options);
  const ripgrep = async () => {
    if (options.ripgrep === false || !isNodeBridge(env.bridge)) return undefined;
    return options.ripgrep ?? (await locateRipgrep());
  };
  return {
    name: "grep",
    label: "grep",
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to 100 matches or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    parameters: grepSchema,
    async execute(_id, params, signal) {
      throwIfAborted(signal);
      checkPathArg("path", params.path);
      const abs = env.resolve(params.path || ".");
      const stat = await env.bridge.stat({ filePath: abs });
      if (!stat) throw new ToolInputError(`Path not found: ${displayPath(env.root, abs)}.`);
      const query: GrepQuery = {
        abs,
        isFile: stat.type === "file",
        pattern: params.pattern,
        literal: params.literal ?? false,
        ignoreCase: params.ignoreCase ?? false,
        glob: params.glob,
        context: Math.max(0, Math.floor(params.context ?? 0)),
      };
      const out = new GrepOutput(Math.max(1, Math.floor(params.limit ?? 100)));
      const rg = await ripgrep();
      const answered = rg ? await grepWithRipgrep(rg, query, out, signal, env.bridge as NodeBridge) : false;
      if (!answered) await grepWithBridge(env.bridge, query, out, signal, options.regexTimeoutMs);
      return out.toResult();
    },
  };
}
