import { createRequire } from "node:module";

/** A compiled pattern list: exact names in a Set so large (plugin-expanded) lists stay O(1) per lookup. */
export interface CompiledPatterns {
  all: boolean;
  exact: Set<string>;
  regexes: RegExp[];
  size: number;
}

type MakeRe = (pattern: string, options: Record<string, unknown>) => RegExp;
// picomatch is loaded on the first wildcard pattern; most policies have none.
let makeRe: MakeRe | undefined;
function loadMakeRe(): MakeRe {
  makeRe ??= (createRequire(import.meta.url)("picomatch") as { makeRe: MakeRe }).makeRe;
  return makeRe;
}

// Everything but `*` is literal in a tool-name pattern (OpenClaw `src/agents/glob-pattern.ts`).
const GLOB_SPECIALS = /[\\?[\]{}()!+@|^$.,]/g;

/**
 * A wildcard pattern as picomatch compiles it, with OpenClaw's semantics: `*` matches any run of
 * characters (`/` and `.` included, as `bash` mode's globstar does), every other character is
 * literal (`?`, braces and brackets included), anchored at both ends.
 */
function wildcardRegex(pattern: string): RegExp {
  return loadMakeRe()(pattern.replace(GLOB_SPECIALS, "\\$&"), { dot: true, bash: true, nonegate: true });
}

/** `*` alone matches all; a pattern with `*` is a wildcard (see above); empty patterns are dropped. */
export function compileGlobPatterns(patterns: readonly string[]): CompiledPatterns {
  const compiled: CompiledPatterns = { all: false, exact: new Set(), regexes: [], size: 0 };
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (!pattern) continue;
    compiled.size++;
    if (pattern === "*") compiled.all = true;
    else if (pattern.includes("*")) compiled.regexes.push(wildcardRegex(pattern));
    else compiled.exact.add(pattern);
  }
  return compiled;
}

export function matchesAnyPattern(name: string, patterns: CompiledPatterns): boolean {
  return patterns.all || patterns.exact.has(name) || patterns.regexes.some((re) => re.test(name));
}
