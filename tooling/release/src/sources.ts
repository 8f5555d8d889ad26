/** The TypeScript sources of a package: `src/**`, tests, declarations and fixtures left out. */
import { readdirSync } from "node:fs";
import path from "node:path";

const SKIPPED_DIRS = new Set(["node_modules", "fixtures", "__fixtures__", "dist"]);

export function sources(dir: string): string[] {
  const out: string[] = [];
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...sources(at));
    } else if (
      /\.(ts|tsx|mts|cts)$/u.test(entry.name) &&
      !/\.(test|spec|bench)\.|\.d\.ts$/u.test(entry.name)
    ) {
      out.push(at);
    }
  }
  return out;
}
