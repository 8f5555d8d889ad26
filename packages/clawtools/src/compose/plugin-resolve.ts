import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Where `--plugin <spec>` points: a file, a package folder (its package.json's `exports`, then
 * `main`, then index.js), or a package name looked up from `base`, then beside clawtools. A spec
 * that resolves nowhere throws one line saying where it was looked for and how to install it.
 */
export function resolvePluginSpec(spec: string, base: string, isPath: boolean): string {
  if (isPath) {
    const file = path.resolve(base, spec);
    if (!existsSync(file)) throw new Error(`no such file: ${file}`);
    return pathToFileURL(statSync(file).isDirectory() ? packageEntry(file) : file).href;
  }
  const looked: string[] = [];
  for (const from of [base, ownDir()]) {
    const dir = findPackageDir(spec, from);
    if (dir) return pathToFileURL(packageEntry(dir)).href;
    looked.push(path.join(from, "node_modules"));
  }
  try {
    // a subpath (@acme/tools/plugin) or a package resolvable by other means: require's, then import's view
    return pathToFileURL(createRequire(path.join(base, "package.json")).resolve(spec)).href;
  } catch {}
  try {
    return import.meta.resolve(spec);
  } catch {
    throw new Error(
      `package not found (looked in node_modules from ${[...new Set(looked)].join(" and from ")} upwards); install it there: npm install ${spec}`,
    );
  }
}

/** The nearest `node_modules/<spec>` folder from `from` up to the file system's root. */
function findPackageDir(spec: string, from: string): string | undefined {
  let dir = path.resolve(from);
  for (;;) {
    const candidate = path.join(dir, "node_modules", spec);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** This package's folder (its code sits in dist/, or dist/compose/): a plugin installed beside it is found from there. */
function ownDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (["dist", "compose", "src"].includes(path.basename(dir))) dir = path.dirname(dir);
  return dir;
}

/** The `import` entry of a package folder: `exports["."]` (import / node / default), then `main`, then index.js. */
export function packageEntry(dir: string): string {
  const manifest = path.join(dir, "package.json");
  if (!existsSync(manifest)) {
    const index = ["index.mjs", "index.js"].map((f) => path.join(dir, f)).find(existsSync);
    if (index) return index;
    throw new Error(`${dir} is a folder without package.json or index.js: name the plugin's entry file`);
  }
  let pkg: { exports?: unknown; main?: unknown };
  try {
    pkg = JSON.parse(readFileSync(manifest, "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${manifest}: ${(error as Error).message}`);
  }
  const target = exportTarget(pkg.exports) ?? (typeof pkg.main === "string" ? pkg.main : "index.js");
  const file = path.resolve(dir, target);
  if (!existsSync(file))
    throw new Error(`${manifest} points at ${target}, which does not exist (is the package built?)`);
  return file;
}

const CONDITIONS = ["import", "node", "default"];

/** The file `exports` maps "." to under the import conditions, if it says. */
function exportTarget(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (typeof exports !== "object" || exports === null || Array.isArray(exports)) return undefined;
  const map = exports as Record<string, unknown>;
  const root = Object.keys(map).some((k) => k.startsWith(".")) ? map["."] : map;
  return pick(root);
}

function pick(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(pick).find(Boolean);
  if (typeof value !== "object" || value === null) return undefined;
  for (const [condition, target] of Object.entries(value as Record<string, unknown>))
    if (CONDITIONS.includes(condition)) {
      const found = pick(target);
      if (found) return found;
    }
  return undefined;
}
