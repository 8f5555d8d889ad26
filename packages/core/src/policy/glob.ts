export type CompiledPattern =
  | { kind: "all" }
  | { kind: "exact"; value: string }
  | { kind: "regex"; value: RegExp };

/** `*` alone matches all; a pattern with `*` becomes an anchored regex; empty patterns are dropped. */
export function compileGlobPatterns(patterns: readonly string[]): CompiledPattern[] {
  const out: CompiledPattern[] = [];
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (!pattern) continue;
    if (pattern === "*") out.push({ kind: "all" });
    else if (pattern.includes("*")) {
      const source = pattern
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*");
      out.push({ kind: "regex", value: new RegExp(`^${source}$`) });
    } else out.push({ kind: "exact", value: pattern });
  }
  return out;
}

export function matchesAnyPattern(name: string, patterns: readonly CompiledPattern[]): boolean {
  return patterns.some((p) =>
    p.kind === "all" ? true : p.kind === "exact" ? p.value === name : p.value.test(name),
  );
}
