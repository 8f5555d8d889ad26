/**
 * Variables the process keeps to itself: the ones a server uses as its own secrets (a store's
 * password, a Gateway token, provider keys it calls models with). They are left out of the
 * environment every command, background process and harness inherits (`sanitizeEnv`), as a
 * mounted MCP server gets only what its config gives it. Process-wide, on globalThis, so every
 * copy of core in the process agrees.
 */
const KEY = Symbol.for("clawtools.withheld-env");
const holder = globalThis as Record<symbol, Map<string, number> | undefined>;
holder[KEY] ??= new Map();
const withheld: Map<string, number> = holder[KEY];

/** Withholds the named variables (case-insensitively) from child environments; returns the undo. */
export function withholdEnv(names: Iterable<string>): () => void {
  const keys = [...new Set([...names].map((n) => n.toUpperCase()).filter(Boolean))];
  for (const k of keys) withheld.set(k, (withheld.get(k) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const k of keys) {
      const n = (withheld.get(k) ?? 1) - 1;
      if (n <= 0) withheld.delete(k);
      else withheld.set(k, n);
    }
  };
}

/** Whether `key` is withheld from child environments. */
export function isWithheldEnvKey(key: string): boolean {
  return withheld.size > 0 && withheld.has(key.toUpperCase());
}

/** The withheld names (for diagnostics and tests). */
export function withheldEnvKeys(): string[] {
  return [...withheld.keys()].sort();
}
