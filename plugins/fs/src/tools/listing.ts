import {
  DEFAULT_MAX_BYTES,
  formatSize,
  ToolInputError,
  type TruncationResult,
  truncateHead,
} from "@clawtools/core";
import type { FsEnv } from "../fs-env.js";
import { displayPath } from "../paths.js";
import { checkPathArg } from "./messages.js";

// What the two listing tools (ls, find) share: the directory they read and how a listing is capped.

/** Where a listing reads, resolved in the workspace (default: its root); not looked at yet. */
export function listingTarget(env: FsEnv, path: string | undefined): { abs: string; shown: string } {
  checkPathArg("path", path);
  const abs = env.resolve(path || ".");
  return { abs, shown: displayPath(env.root, abs) };
}

/** Refuses a listing target that is missing or not a directory (`use` says what the tool does with one). */
export async function checkListedDirectory(
  env: FsEnv,
  target: { abs: string; shown: string },
  use: string,
): Promise<void> {
  const stat = await env.bridge.stat({ filePath: target.abs });
  if (!stat) throw new ToolInputError(`Path not found: ${target.shown}.`);
  if (stat.type !== "directory")
    throw new ToolInputError(`Not a directory: ${target.shown}. ${use}; use read for a file.`);
}

/**
 * The directory a listing reads, resolved in the workspace (default: its root); refused when it
 * is missing or not a directory (`use` says what the tool does with one).
 */
export async function listedDirectory(
  env: FsEnv,
  path: string | undefined,
  use: string,
): Promise<{ abs: string; shown: string }> {
  const target = listingTarget(env, path);
  await checkListedDirectory(env, target, use);
  return target;
}

/**
 * A listing as the model gets it: its lines cut to the byte cap, then a notice for each cap
 * reached (the count `limited` names, the bytes); details only when a cap was reached.
 */
export function listingResult<D extends { truncation?: TruncationResult }>(
  lines: string[],
  limited: { notice: string; details: D } | undefined,
) {
  const truncation = truncateHead(lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  const notices: string[] = [];
  const details = { ...limited?.details } as D;
  if (limited) notices.push(limited.notice);
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  const text = truncation.content + (notices.length ? `\n\n[${notices.join(". ")}]` : "");
  return { content: [{ type: "text" as const, text }], details: notices.length ? details : undefined };
}
