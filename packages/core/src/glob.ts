import picomatch from "picomatch";

export interface GlobOptions {
  /** Case-insensitive matching (default false, as ripgrep and fd). */
  ignoreCase?: boolean;
  /** `*` and `**` also match names starting with a dot (default true: searches include dotfiles). */
  dot?: boolean;
}

/** A compiled glob: tests a `/`-separated path. */
export type GlobMatcher = (path: string) => boolean;

/**
 * The one glob matcher every section uses (picomatch): `*`, `**`, `?`, `[...]`, `{a,b}` and
 * extglobs, compiled once. A leading `!` is NOT interpreted here; callers that accept negated
 * globs decide what negation means for them (see `@clawtools/fs`'s find and grep).
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const test = picomatch(pattern, {
    dot: options.dot ?? true,
    nocase: options.ignoreCase ?? false,
    nonegate: true,
  });
  return (path) => test(path);
}
