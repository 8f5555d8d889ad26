import { createRequire } from "node:module";

type Picomatch = (
  pattern: string,
  options: { dot: boolean; nocase: boolean; nonegate: boolean },
) => (path: string) => boolean;
// picomatch is loaded on the first glob that needs a regex; plain globs never load it.
let picomatch: Picomatch | undefined;
const loadPicomatch = (): Picomatch => {
  picomatch ??= createRequire(import.meta.url)("picomatch") as Picomatch;
  return picomatch;
};

export interface GlobOptions {
  /** Case-insensitive matching (default false, as ripgrep and fd). */
  ignoreCase?: boolean;
}

/** A compiled glob: tests a `/`-separated path. */
export type GlobMatcher = (path: string) => boolean;

/** Most `*` wildcards one path segment may hold when the glob needs picomatch's regex. */
export const MAX_GLOB_STARS_PER_SEGMENT = 3;
export const MAX_GLOB_LENGTH = 4096;

/** A segment of only literal characters, `*` and `?`. */
const PLAIN_SEGMENT = /^[^\\[\]{}()!+@,]*$/;

/**
 * `*` and `?` against one segment in linear-ish time (the classic greedy two-pointer walk),
 * never a backtracking regex: the cost is at most pattern × name, whatever the input.
 */
function wildcard(pattern: string[], name: string[]): boolean {
  if (name.length === 0) return false;
  let p = 0;
  let n = 0;
  let star = -1;
  let mark = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === "?" || (pattern[p] !== "*" && pattern[p] === name[n]))) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = n;
    } else if (star !== -1) {
      p = star + 1;
      n = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

/** Segments are matched in order; a `**` segment matches zero or more whole segments. */
function plainMatcher(segments: string[], ignoreCase: boolean): GlobMatcher {
  const fold = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  const parts = segments.map((s) => (s === "**" ? null : Array.from(fold(s))));
  return (path) => {
    const names = fold(path)
      .split("/")
      .map((s) => Array.from(s));
    const P = parts.length;
    const S = names.length;
    // memo[pi * (S + 1) + si]: 0 unknown, 1 no, 2 yes (each state once: O(P × S) segment tests)
    const memo = new Uint8Array((P + 1) * (S + 1));
    const match = (pi: number, si: number): boolean => {
      const key = pi * (S + 1) + si;
      if (memo[key]) return memo[key] === 2;
      let ok: boolean;
      if (pi === P) ok = si === S;
      else if (parts[pi] === null) ok = match(pi + 1, si) || (si < S && match(pi, si + 1));
      else ok = si < S && wildcard(parts[pi]!, names[si]!) && match(pi + 1, si + 1);
      memo[key] = ok ? 2 : 1;
      return ok;
    };
    return match(0, 0);
  };
}

/**
 * The one glob matcher every section uses: picomatch's syntax (`*`, `**`, `?`, `[...]`,
 * `{a,b}`, extglobs) with dotfiles matched, compiled once. Globs made only of literals, `*`,
 * `?` and `**` segments (the common case) are matched without a regex, in time bounded by
 * pattern × path; any other glob goes to picomatch, which compiles to a backtracking regex, so
 * it may hold at most 3 `*` per segment (a fourth costs seconds on one crafted 255-character
 * name). A leading `!` is NOT interpreted here: callers decide what negation means for them.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  if (pattern.length > MAX_GLOB_LENGTH)
    throw new Error(`Glob is too long (${pattern.length} characters; the limit is ${MAX_GLOB_LENGTH}).`);
  const segments = pattern.split("/");
  const plain = segments.every((s) => s === "**" || (s !== "" && s !== "." && PLAIN_SEGMENT.test(s)));
  if (plain && !segments.every((s) => s === "**")) return plainMatcher(segments, options.ignoreCase ?? false);
  for (const segment of segments) {
    const stars = segment === "**" ? 0 : (segment.match(/\*+/g) ?? []).length;
    if (stars > MAX_GLOB_STARS_PER_SEGMENT)
      throw new Error(
        `Glob segment ${JSON.stringify(segment.slice(0, 80))} has ${stars} '*' wildcards; at most ${MAX_GLOB_STARS_PER_SEGMENT} are allowed next to brackets, braces or extglobs.`,
      );
  }
  const test = loadPicomatch()(pattern, { dot: true, nocase: options.ignoreCase ?? false, nonegate: true });
  return (path) => test(path);
}
