import {
  type AgentTool,
  DEFAULT_MAX_BYTES,
  type FsBridge,
  type FsStat,
  type ToolContext,
  ToolInputError,
  type TruncationResult,
  Type,
} from "@clawtools/core";
import { type FsToolOptions, resolveFsEnv, throwIfAborted } from "../fs-env.js";
import { isNodeBridge } from "../bridge/node-bridge.js";
import { checkListedDirectory, listingResult, listingTarget } from "./listing.js";
import { clip } from "./messages.js";

export const lsSchema = Type.Object(
  {
    path: Type.Optional(Type.String({ description: "Directory to list (default: current directory)" })),
    limit: Type.Optional(Type.Number({ description: "Maximum number of entries to return (default: 500)" })),
    after: Type.Optional(
      Type.String({ description: "Continue after this entry name (the cursor a previous page returned)" }),
    ),
  },
  { additionalProperties: false },
);

/** Case-insensitive order (pi's), ties broken by code units so every name has one place. */
const order = (a: string, b: string) =>
  a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : a > b ? 1 : 0);

/** What an in-root link leads to, or why it is not followed ("broken", "outside the workspace"). */
async function followLink(bridge: FsBridge, at: string): Promise<FsStat | string> {
  try {
    return (await bridge.stat({ filePath: at })) ?? "broken";
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith("Symlink escapes")) return "outside the workspace";
    if (message.startsWith("Too many symlinks")) return "symlink loop";
    return "not followed";
  }
}

/** `name@ -> target (why)`: `@` as `ls -F` marks a link; the target as written, quoted if odd. */
function linkLine(entry: { name: string; target?: string }, why: string): string {
  if (entry.target === undefined) return `${entry.name}@ (${why})`;
  const target = clip(entry.target, 200);
  const shown = /[\u0000-\u001f\u007f]/.test(target) ? JSON.stringify(target) : target;
  return `${entry.name}@ -> ${shown} (${why})`;
}

export interface LsDetails {
  entryLimitReached?: number;
  /** The name to pass as `after` for the next page. */
  nextAfter?: string;
  truncation?: TruncationResult;
}

export function createLsTool(
  ctx: ToolContext = {},
  options: FsToolOptions = {},
): AgentTool<typeof lsSchema, LsDetails | undefined> {
  const env = resolveFsEnv(ctx, options);
  return {
    name: "ls",
    label: "ls",
    description: `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories; a symlink that leads outside the workspace or nowhere is shown as 'name@ -> target (why)' and never followed. Includes dotfiles. Output is truncated to 500 entries or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first).`,
    parameters: lsSchema,
    async execute(_id, { path, limit, after }, signal) {
      throwIfAborted(signal);
      const target = listingTarget(env, path);
      const { abs, shown } = target;
      const use = "ls lists a directory";
      // the local disk's listing opens the directory itself (one verified walk): what is missing
      // or not a directory is told apart only when it fails; another bridge is asked first
      const direct = isNodeBridge(env.bridge);
      if (!direct) await checkListedDirectory(env, target, use);
      const cap = Math.max(1, Math.floor(limit ?? 500));
      if (!env.bridge.readdir)
        throw new ToolInputError("This file-system bridge cannot list directories (readdir missing)");
      let entries: Awaited<ReturnType<NonNullable<typeof env.bridge.readdir>>>;
      try {
        entries = await env.bridge.readdir({ filePath: abs });
      } catch (error) {
        if (direct) await checkListedDirectory(env, target, use);
        throw new ToolInputError(`Cannot read directory ${shown}: ${clip((error as Error).message)}`);
      }
      entries.sort((a, b) => order(a.name, b.name));
      const lines: string[] = [];
      let limited = false;
      let lastName: string | undefined;
      for (const entry of entries) {
        if (after !== undefined && order(entry.name, after) <= 0) continue;
        if (lines.length >= cap) {
          limited = true;
          break;
        }
        let type = entry.type;
        if (type === "symlink") {
          const followed = await followLink(env.bridge, `${abs}/${entry.name}`);
          if (typeof followed === "string") {
            // dangling or leading outside: listed as a link, never followed
            lines.push(linkLine(entry, followed));
            lastName = entry.name;
            continue;
          }
          type = followed.type;
        }
        lines.push(type === "directory" ? `${entry.name}/` : entry.name);
        lastName = entry.name;
      }
      if (lines.length === 0)
        return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
      const notice = `${cap} entries limit reached. Use limit=${cap * 2} for more, or after=${JSON.stringify(lastName)} to continue`;
      return listingResult<LsDetails>(
        lines,
        limited ? { notice, details: { entryLimitReached: cap, nextAfter: lastName! } } : undefined,
      );
    },
  };
}
