/**
 * No import cycles in the published packages' sources (issue 36): a cycle makes load order
 * matter and hides which file is the lower layer. Type-only imports are erased, so they do not
 * count.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, runtimeImports } from "../src/import-graph.js";
import { sources } from "../src/sources.js";
import { publishablePackages, root } from "../src/workspace.js";

describe("import cycles", () => {
  it("finds a cycle through value imports and ignores type-only ones", () => {
    const files: Record<string, string> = {
      "/p/a.ts": 'import { b } from "./b.js";\nimport type { T } from "./c.js";',
      "/p/b.ts": 'export { a } from "./a.js";',
      "/p/c.ts": 'import { type A, type B } from "./a.js";',
    };
    const exists = (p: string) => p in files;
    const graph = new Map(Object.entries(files).map(([f, t]) => [f, runtimeImports(f, t, exists)]));
    expect(graph.get("/p/c.ts")).toEqual([]);
    expect(importCycles(graph)).toEqual([["/p/a.ts", "/p/b.ts"]]);
  });

  it("has none in the published packages", () => {
    const graph = new Map<string, string[]>();
    for (const { dir } of publishablePackages())
      for (const file of sources(path.join(root, dir, "src")))
        graph.set(file, runtimeImports(file, readFileSync(file, "utf8")));
    expect(graph.size).toBeGreaterThan(100);
    const cycles = importCycles(graph).map((c) => c.map((f) => path.relative(root, f)).join(" <-> "));
    expect(cycles).toEqual([]);
  });
});
