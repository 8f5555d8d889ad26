import { accessSync, constants, realpathSync, statSync } from "node:fs";
import path from "node:path";

export interface ResolvedExecutable {
  /** The absolute path that was found (and that will be executed). */
  path: string;
  /** Its real path (links resolved). */
  realPath: string;
}

function executableFile(candidate: string): ResolvedExecutable | undefined {
  try {
    if (!statSync(candidate).isFile()) return undefined;
    accessSync(candidate, constants.X_OK);
    return { path: candidate, realPath: realpathSync(candidate) };
  } catch {
    return undefined;
  }
}

/**
 * The executable a command name names: a name with a slash relative to `cwd`, else the first
 * match in `dirs`. Relative directories (`.`, empty PATH entries) are never searched: what is
 * found must not depend on where the command runs.
 */
export function resolveExecutable(
  name: string,
  dirs: readonly string[],
  cwd: string,
): ResolvedExecutable | undefined {
  if (!name) return undefined;
  if (name.includes("/")) return executableFile(path.resolve(cwd, name));
  for (const dir of dirs) {
    if (!path.isAbsolute(dir)) continue;
    const found = executableFile(path.join(dir, name));
    if (found) return found;
  }
  return undefined;
}
