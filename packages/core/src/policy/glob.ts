/** A compiled pattern list: exact names in a Set so large (plugin-expanded) lists stay O(1) per lookup. */
export interface CompiledPatterns {
  all: boolean;
  exact: Set<string>;
  regexes: RegExp[];
  size: number;
}

/** `*` alone matches all; a pattern with `*` becomes an anchored regex; empty patterns are dropped. */
export function compileGlobPatterns(patterns: readonly string[]): CompiledPatterns {
  const compiled: CompiledPatterns = { all: false, exact: new Set(), regexes: [], size: 0 };
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (!pattern) continue;
    compiled.size++;
    if (pattern === "*") compiled.all = true;
    else if (pattern.includes("*")) {
      const source = pattern
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*");
      compiled.regexes.push(new RegExp(`^${source}$`));
    } else compiled.exact.add(pattern);
  }
  return compiled;
}

export function matchesAnyPattern(name: string, patterns: CompiledPatterns): boolean {
  return patterns.all || patterns.exact.has(name) || patterns.regexes.some((re) => re.test(name));
}
