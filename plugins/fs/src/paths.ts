import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { ToolInputError } from "@clawtools/core";
import { isInsideRoot, quotePath } from "@clawtools/core/safety";

const UNICODE_SPACES = /[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g;

/** Strips a leading `@`, folds Unicode spaces to ASCII and expands `~` / `~/` (never `~user`). */
export function normalizeInputPath(input: string): string {
  let p = input.replace(UNICODE_SPACES, " ");
  if (p.startsWith("@")) p = p.slice(1);
  if (p === "~") return homedir();
  if (p.startsWith("~/")) return path.join(homedir(), p.slice(2));
  return p;
}

const isInside = isInsideRoot;

/** The same text core's workspace walk uses (the path quoted to at most 200 characters). */
export function escapeError(root: string, input: string): ToolInputError {
  return new ToolInputError(`Path escapes sandbox root (${root}): ${quotePath(input)}`);
}

/**
 * Resolves a tool path against the workspace root. With containment on, `..` and absolute
 * paths that leave the root are refused here; symlinks, hardlinks and races are refused by the
 * bridge, which opens every path through core's workspace walk (`openInWorkspace`).
 */
export function resolveToolPath(input: string, root: string, workspaceOnly: boolean): string {
  if (typeof input !== "string" || input.trim() === "") throw new ToolInputError("path required");
  if (input.includes("\0"))
    throw new ToolInputError(`Invalid path (contains a NUL byte): ${JSON.stringify(quotePath(input))}`);
  const resolved = path.resolve(root, normalizeInputPath(input));
  if (!workspaceOnly) return resolved;
  const base = path.resolve(root);
  if (isInside(base, resolved)) return resolved;
  // A workspace given through a symlink (macOS /tmp): a path under its real directory is inside
  // too. It is re-spelled under the root as given, so messages and locks see one spelling; the
  // bridge's walk still checks every component from the real root.
  const real = realRootOf(base);
  if (real !== undefined && real !== base && isInside(real, resolved))
    return path.join(base, path.relative(real, resolved));
  // The other way round (macOS: the workspace is /private/tmp/w, the model writes /tmp/w/…): a
  // path through a link outside the workspace that the system resolves into it is inside too.
  const through = real === undefined ? undefined : resolveThroughLinks(resolved);
  if (through !== undefined && isInside(real!, through))
    return path.join(base, path.relative(real!, through));
  throw escapeError(root, input);
}

/** The system's real path of `abs`, its missing tail appended as spelled; undefined if none exists. */
function resolveThroughLinks(abs: string): string | undefined {
  const rest: string[] = [];
  for (let head = abs; ; ) {
    try {
      return path.join(realpathSync.native(head), ...rest);
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return undefined;
      rest.unshift(path.basename(head));
      head = parent;
    }
  }
}

const realRoots = new Map<string, string>();

/** The root's real path, looked up once (only paths that fail the lexical check need it). */
function realRootOf(base: string): string | undefined {
  let real = realRoots.get(base);
  if (real === undefined) {
    try {
      real = realpathSync.native(base);
    } catch {
      return undefined; // a missing root: nothing is inside it yet
    }
    realRoots.set(base, real);
  }
  return real;
}

/** Path relative to the root when inside it, for messages; the absolute path otherwise. */
export function displayPath(root: string, abs: string): string {
  return isInside(root, abs) ? path.relative(root, abs) || "." : abs;
}
