import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The seam holds only if the tools cannot reach Playwright: every module the tools (and the
// driver contract) import, followed file by file, is read here for imports of playwright-core,
// type-only imports and dynamic import() included.

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
// from "x", import "x", import("x"), require("x"): every form a module can name another in
const SPECIFIERS = [
  /\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*\(?\s*["']([^"']+)["']/g,
  /\brequire\s*\(\s*["']([^"']+)["']/g,
];

function importsOf(file: string): string[] {
  const source = readFileSync(file, "utf8");
  return SPECIFIERS.flatMap((re) => [...source.matchAll(re)].map((m) => m[1]!));
}

/** Every source file reachable from `entries` through relative imports, with its bare imports. */
function graph(entries: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    const specifiers = importsOf(file);
    seen.set(file, specifiers);
    for (const spec of specifiers)
      if (spec.startsWith(".")) queue.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")));
  }
  return seen;
}

const rel = (file: string) => path.relative(SRC, file);
const playwrightUsers = (g: Map<string, string[]>) =>
  [...g]
    .filter(([, specs]) => specs.some((s) => s === "playwright-core" || s.startsWith("playwright")))
    .map(([f]) => rel(f));

describe("the tools' import graph", () => {
  const tools = readdirSync(path.join(SRC, "tools"))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => path.join(SRC, "tools", f));
  const contract = readdirSync(path.join(SRC, "driver")).map((f) => path.join(SRC, "driver", f));

  it("never reaches playwright-core nor the Playwright driver's files", () => {
    const g = graph([...tools, ...contract]);
    expect([...g.keys()].map(rel)).toContain("tools/browser.ts");
    expect(playwrightUsers(g)).toEqual([]);
    expect([...g.keys()].map(rel).filter((f) => f.startsWith("browser/") || f === "canvas/host.ts")).toEqual(
      [],
    );
  });

  it("is walked by a reader that does find Playwright where it is used", () => {
    // the default driver's graph: proves the walk follows imports and sees every import form
    const g = graph([path.join(SRC, "browser", "host.ts")]);
    expect(playwrightUsers(g)).toEqual(
      expect.arrayContaining(["browser/runtime.ts", "browser/tab.ts", "browser/act.ts", "canvas/host.ts"]),
    );
    expect(importsOf(path.join(SRC, "browser", "runtime.ts"))).toContain("playwright-core");
  });
});
