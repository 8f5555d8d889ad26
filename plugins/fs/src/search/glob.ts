import { compileGlob, ToolInputError } from "@clawtools/core";

/**
 * A file filter with ripgrep's `--glob` / fd's semantics, on core's one glob matcher (picomatch):
 * a pattern without `/` matches the base name at any depth, one with `/` the path relative to
 * the searched directory (a leading `/` anchors it there); a leading `!` excludes what matches,
 * and an excluded directory excludes everything under it (rg skips it entirely).
 */
export function makeGlobMatcher(glob: string): (relPath: string) => boolean {
  const negated = glob.startsWith("!");
  const body = negated ? glob.slice(1) : glob;
  const anchored = body.startsWith("/");
  const pattern = anchored ? body.slice(1) : body;
  let test: (path: string) => boolean;
  try {
    test = compileGlob(pattern);
  } catch (error) {
    throw new ToolInputError((error as Error).message);
  }
  const byPath = anchored || pattern.includes("/");
  const matches = (rel: string) => test(byPath ? rel : rel.slice(rel.lastIndexOf("/") + 1));
  if (!negated) return matches;
  return (rel) => {
    // the file itself, then each directory above it
    for (let at = rel.length; at > 0; at = rel.lastIndexOf("/", at - 1)) {
      if (matches(rel.slice(0, at))) return false;
    }
    return true;
  };
}
