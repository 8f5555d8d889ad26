/**
 * CI runs every test on Node 20 and, on Node 24, only the files .ci/node-next-tests.txt selects.
 * This holds that list complete: a test file that depends on the Node version must be selected,
 * so nothing that could behave differently on Node 24 goes untested there.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { root } from "../src/workspace.js";

const LIST = path.join(root, ".ci", "node-next-tests.txt");
/** A native module, node:sqlite, or a branch on the running Node's version. */
const VERSION_DEPENDENT = /["'](?:better-sqlite3|node:sqlite)["']|getBuiltinModule|process\.versions\.node/u;
/** The tag for a file that depends on the Node version in a way the rules below cannot see. */
const TAG = /^\/\/ ci: node-next$/mu;
const SKIPPED_DIRS = new Set(["node_modules", "dist", "fixtures"]);

const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(at, keep);
    return keep(entry.name) ? [at] : [];
  });
}

const isTest = (name: string) => name.endsWith(".test.ts");
const isSource = (name: string) => /\.(ts|mts|cts)$/u.test(name) && !isTest(name);

/** The package folders vitest.config.ts includes tests from. */
const packageDirs = ["packages", "plugins", "adapters", "backends", "apps"].flatMap((folder) =>
  existsSync(path.join(root, folder))
    ? readdirSync(path.join(root, folder)).map((name) => path.join(root, folder, name))
    : [],
);
const testFiles = [
  ...packageDirs.flatMap((dir) => [
    ...walk(path.join(dir, "src"), isTest),
    ...walk(path.join(dir, "test"), isTest),
  ]),
  ...walk(path.join(root, "tooling", "release", "test"), isTest),
];
/** This file names the patterns it looks for; it reads files and runs the same on any Node. */
const self = fileURLToPath(import.meta.url);

const texts = new Map<string, string>();
const read = (file: string) => {
  if (!texts.has(file)) texts.set(file, existsSync(file) ? readFileSync(file, "utf8") : "");
  return texts.get(file) as string;
};

/** The relative modules a file imports (`./x.js` read as `./x.ts`). */
const relativeImports = (file: string) =>
  [...read(file).matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/gu)].map(([, spec]) =>
    path.resolve(path.dirname(file), spec as string).replace(/\.js$/u, ".ts"),
  );

/** Every file the test files reach through relative imports, with what each imports. */
const graph = new Map<string, string[]>();
const pending = [...testFiles];
for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
  if (graph.has(file)) continue;
  const imports = relativeImports(file);
  graph.set(file, imports);
  pending.push(...imports);
}
/** The files that match VERSION_DEPENDENT or import (transitively) one that does. */
const loadsVersionDependent = new Set([...graph.keys()].filter((file) => VERSION_DEPENDENT.test(read(file))));
for (let grew = true; grew; ) {
  grew = false;
  for (const [file, imports] of graph) {
    if (!loadsVersionDependent.has(file) && imports.some((i) => loadsVersionDependent.has(i))) {
      loadsVersionDependent.add(file);
      grew = true;
    }
  }
}

/** Packages whose own code loads a native module or branches on the Node version. */
const versionDependentPackages = packageDirs.filter((dir) =>
  walk(path.join(dir, "src"), isSource).some((file) => VERSION_DEPENDENT.test(read(file))),
);

function whyNodeNext(file: string): string | undefined {
  if (loadsVersionDependent.has(file))
    return "loads a native module or node:sqlite, or checks the Node version";
  if (TAG.test(read(file))) return "is tagged // ci: node-next";
  const owner = versionDependentPackages.find((dir) => file.startsWith(dir + path.sep));
  if (owner) return `tests ${rel(owner)}, whose code depends on the Node version`;
  if (/^apps\/cli\/test\/.*\.e2e\.test\.ts$/u.test(rel(file))) return "drives the built CLI end to end";
  return undefined;
}

const filters = readFileSync(LIST, "utf8")
  .split("\n")
  .map((line) => line.replace(/#.*/u, "").trim())
  .filter(Boolean);
/** As vitest matches a filter: the file's path from the root contains it. */
const matches = (file: string, filter: string) => rel(file).toLowerCase().includes(filter.toLowerCase());
const selected = (file: string) => filters.some((filter) => matches(file, filter));

describe(".ci/node-next-tests.txt", () => {
  it("sees the workspace's test files and the rules' examples", () => {
    expect(testFiles.length).toBeGreaterThan(200);
    expect(whyNodeNext(path.join(root, "plugins/memory/test/sqlite.test.ts"))).toBeDefined();
    expect(whyNodeNext(path.join(root, "adapters/runner-pi-core/test/runner.test.ts"))).toBeDefined();
    expect(whyNodeNext(path.join(root, "apps/cli/test/serve.e2e.test.ts"))).toBeDefined();
    expect(whyNodeNext(path.join(root, "packages/core/src/catalog.test.ts"))).toBeUndefined();
  });

  it("selects every test file that depends on the Node version", () => {
    const missing = testFiles
      .filter((file) => file !== self && !selected(file))
      .flatMap((file) => {
        const why = whyNodeNext(file);
        return why ? [`${rel(file)} ${why}: add it to .ci/node-next-tests.txt`] : [];
      });
    expect(missing).toEqual([]);
  });

  it("has no line that selects nothing", () => {
    const stale = filters.filter((filter) => !testFiles.some((file) => matches(file, filter)));
    expect(stale).toEqual([]);
  });

  it("is what .ci/run hands to the Node 24 test run", () => {
    expect(readFileSync(path.join(root, ".ci", "run"), "utf8")).toContain(".ci/node-next-tests.txt");
  });
});
