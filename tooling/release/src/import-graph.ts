/**
 * The runtime import graph of the sources (relative imports that survive compilation: type-only
 * imports and exports are left out) and its cycles, found as strongly connected components.
 */
import { existsSync } from "node:fs";
import path from "node:path";

const STATEMENT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+["'](\.[^"']+)["']/g;

/** The files `file` imports at run time, resolved to existing `.ts` sources. */
export function runtimeImports(
  file: string,
  text: string,
  exists: (p: string) => boolean = existsSync,
): string[] {
  const out: string[] = [];
  for (const [, , typeOnly, clause, spec] of text.matchAll(STATEMENT)) {
    if (typeOnly) continue;
    // `{ type A, type B }` is erased too
    const braces = /^\{([\s\S]*)\}$/.exec(clause!.trim());
    if (braces) {
      const names = braces[1]!
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    }
    const base = path.resolve(path.dirname(file), spec!).replace(/\.js$/, "");
    const target = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find(exists);
    if (target) out.push(target);
  }
  return out;
}

/** Each cycle of `graph` (its files), found with Tarjan's algorithm; a file alone is no cycle. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
