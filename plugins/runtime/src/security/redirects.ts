import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { isInsideRoot } from "@clawtools/core/safety";
import { shortPrefix } from "../text.js";
import type { Redirect } from "./allowlist-read.js";
import { shellQuote } from "./shell-quote.js";

/** The nearest existing ancestor of `abs`, resolved, joined with the rest (which does not exist yet). */
function realTarget(abs: string): string | undefined {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return undefined;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * A redirection in allowlist mode. Duplicating a descriptor (`2>&1`) and `/dev/null` touch no
 * file. Any other redirection opens a file: refused unless redirections are allowed, and then
 * only a regular file (or a new one) inside the workspace, never through a symbolic link.
 */
export function checkRedirect(
  redirect: Redirect,
  options: { allowRedirections: boolean; cwd: string; workspaceDir: string },
): { text: string } | { problem: string } {
  const { fd, op, target } = redirect;
  const shown = `${fd}${op}${shortPrefix(target, 80)}`;
  if (op === ">&" || op === "<&") return { text: `${fd}${op}${target}` };
  if (target === "/dev/null") return { text: `${fd}${op}/dev/null` };
  if (!options.allowRedirections)
    return {
      problem: `(redirection ${shown}: file redirections are refused in allowlist mode; set exec.allowRedirections to allow them inside the workspace)`,
    };
  const abs = path.resolve(options.cwd, target);
  const real = realTarget(abs);
  if (!real || !isInsideRoot(options.workspaceDir, real))
    return { problem: `(redirection ${shown}: outside the workspace)` };
  try {
    const stat = lstatSync(abs);
    if (stat.isSymbolicLink()) return { problem: `(redirection ${shown}: a symbolic link)` };
    if (!stat.isFile()) return { problem: `(redirection ${shown}: not a regular file)` };
  } catch {
    // a file the command creates
  }
  return { text: `${fd}${op}${shellQuote(real)}` };
}
