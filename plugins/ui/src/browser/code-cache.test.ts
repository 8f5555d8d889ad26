import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { defaultCodeCacheDir, nodeCompilesWithCache } from "./code-cache.js";

// Each load runs in a process of its own, as a serve does: within one process V8 keeps what it
// compiled in memory and would answer a second compile of the same source from there.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const CODE_CACHE = pathToFileURL(fileURLToPath(new URL("./code-cache.ts", import.meta.url))).href;
const run = promisify(execFile);

interface Loaded {
  thisIsExports: boolean;
  four: number;
  where: string;
  self: string;
  resolved: string;
  outside: string;
  counts: { fromCache: number; compiled: number };
  written: number;
  loaderRestored: boolean;
  error?: string;
  stderr: string;
}

interface Fixture {
  root: string;
  pkg: string;
  cacheDir: string;
  load(cacheDir?: string): Promise<Loaded>;
}

const fixtures: Fixture[] = [];
afterEach(() => {
  for (const f of fixtures.splice(0)) rmSync(f.root, { recursive: true, force: true });
});

/** A package of two CommonJS files, a file beside it outside the package, and a loader script. */
function fixture(): Fixture {
  const root = mkdtempSync(path.join(os.tmpdir(), "code-cache-"));
  const pkg = path.join(root, "pkg");
  mkdirSync(pkg);
  writeFileSync(path.join(root, "outside.js"), "module.exports = 'outside';\n");
  writeFileSync(
    path.join(pkg, "lib.js"),
    "exports.twice = (n) => n * 2;\nexports.where = __dirname;\nexports.self = __filename;\n",
  );
  writeFileSync(
    path.join(pkg, "index.js"),
    [
      "const lib = require('./lib');",
      "module.exports = {",
      "  thisIsExports: this === exports,",
      "  four: lib.twice(2),",
      "  where: lib.where,",
      "  self: lib.self,",
      "  resolved: require.resolve('./lib'),",
      "  outside: require('../outside.js'),",
      "};",
      "",
    ].join("\n"),
  );
  const script = path.join(root, "load.mjs");
  writeFileSync(
    script,
    [
      "import Module, { createRequire } from 'node:module';",
      `import { CodeCache } from ${JSON.stringify(CODE_CACHE)};`,
      "const [dir, pkg] = process.argv.slice(2);",
      "const cache = new CodeCache(dir);",
      "const before = Module.prototype._compile;",
      "let out = {};",
      "try {",
      "  const loaded = cache.require(createRequire(import.meta.url), pkg + '/index.js', pkg);",
      "  out = { ...loaded };",
      "} catch (error) {",
      "  out = { error: error.stack };",
      "}",
      "out.loaderRestored = Module.prototype._compile === before;",
      "out.counts = cache.counts;",
      "out.written = await cache.save();",
      "console.log(JSON.stringify(out));",
      "",
    ].join("\n"),
  );
  const cacheDir = path.join(root, "cache");
  const f: Fixture = {
    root,
    pkg,
    cacheDir,
    async load(dir = cacheDir) {
      const { stdout, stderr } = await run(process.execPath, ["--import", TSX, script, dir, pkg], {
        timeout: 60_000,
      });
      return { ...(JSON.parse(stdout) as Omit<Loaded, "stderr">), stderr };
    },
  };
  fixtures.push(f);
  return f;
}

function expectWorking(loaded: Loaded, pkg: string) {
  expect(loaded).toMatchObject({
    thisIsExports: true,
    four: 4,
    where: pkg,
    self: path.join(pkg, "lib.js"),
    resolved: path.join(pkg, "lib.js"),
    outside: "outside",
    loaderRestored: true,
  });
}

describe.skipIf(nodeCompilesWithCache)("CodeCache", { timeout: 120_000 }, () => {
  it("compiles a package's files, writes their entries, and the next process compiles from them", async () => {
    const f = fixture();
    const first = await f.load();
    expectWorking(first, f.pkg);
    // only the package's two files, not the one outside it
    expect(first.counts).toEqual({ fromCache: 0, compiled: 2 });
    expect(first.stderr).toBe("");
    expect(first.written).toBe(2);
    expect(statSync(f.cacheDir).mode & 0o777).toBe(0o700);
    const entries = readdirSync(f.cacheDir);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(statSync(path.join(f.cacheDir, entry)).mode & 0o777).toBe(0o600);

    const second = await f.load();
    expectWorking(second, f.pkg);
    expect(second.counts).toEqual({ fromCache: 2, compiled: 0 });
    expect(second.written).toBe(0);
  });

  it("puts Node's loader back after a module that throws, and the error names its file", async () => {
    const f = fixture();
    writeFileSync(path.join(f.pkg, "index.js"), "require('./lib');\nthrow new Error('broken module');\n");
    const loaded = await f.load();
    expect(loaded.error).toMatch(/^Error: broken module\n/);
    expect(loaded.error).toContain(`${path.join(f.pkg, "index.js")}:2`);
    expect(loaded.loaderRestored).toBe(true);
  });

  it("an entry V8 rejects is compiled over and written again", async () => {
    const f = fixture();
    await f.load();
    const [entry] = readdirSync(f.cacheDir);
    writeFileSync(path.join(f.cacheDir, entry!), Buffer.alloc(4096, 7));
    const damaged = await f.load();
    expectWorking(damaged, f.pkg);
    expect(damaged.counts).toEqual({ fromCache: 1, compiled: 1 });
    expect(damaged.written).toBe(1);
    expect((await f.load()).counts).toEqual({ fromCache: 2, compiled: 0 });
  });

  it("a changed file gets a new entry and its old one is removed", async () => {
    const f = fixture();
    await f.load();
    writeFileSync(
      path.join(f.pkg, "lib.js"),
      "exports.twice = (n) => n + n;\nexports.where = __dirname;\nexports.self = __filename;\n",
    );
    const changed = await f.load();
    expectWorking(changed, f.pkg);
    expect(changed.counts).toEqual({ fromCache: 1, compiled: 1 });
    expect(changed.written).toBe(1);
    expect(readdirSync(f.cacheDir)).toHaveLength(2);
    expect((await f.load()).counts).toEqual({ fromCache: 2, compiled: 0 });
  });

  it("a cache directory that cannot be made costs only the speed", async () => {
    const f = fixture();
    writeFileSync(f.cacheDir, "a file where the directory would go");
    const loaded = await f.load(path.join(f.cacheDir, "inner"));
    expectWorking(loaded, f.pkg);
    expect(loaded.written).toBe(0);
  });

  it.skipIf(process.getuid?.() === 0)(
    "a cache directory it cannot write to costs only the speed",
    async () => {
      const f = fixture();
      mkdirSync(f.cacheDir);
      chmodSync(f.cacheDir, 0o500);
      const loaded = await f.load();
      expectWorking(loaded, f.pkg);
      expect(loaded.written).toBe(0);
    },
  );

  it("a directory others can write to is not read from or written to, and a warning says so", async () => {
    const f = fixture();
    await f.load();
    chmodSync(f.cacheDir, 0o777);
    const before = readdirSync(f.cacheDir).map((e) => statSync(path.join(f.cacheDir, e)).mtimeMs);
    const loaded = await f.load();
    expectWorking(loaded, f.pkg);
    expect(loaded.counts).toEqual({ fromCache: 0, compiled: 0 });
    expect(loaded.written).toBe(0);
    expect(loaded.stderr).toContain(
      `[CLAWTOOLS_CODE_CACHE] Warning: the code cache directory ${f.cacheDir} is writable by other users, so it is not used; make it a directory of yours alone (chmod 700) or set browser.codeCacheDir in the ui configuration`,
    );
    expect(readdirSync(f.cacheDir).map((e) => statSync(path.join(f.cacheDir, e)).mtimeMs)).toEqual(before);
    // made private again, it is used again
    chmodSync(f.cacheDir, 0o700);
    expect((await f.load()).counts).toEqual({ fromCache: 2, compiled: 0 });
  });

  it("a file where the directory would be is not used either", async () => {
    const f = fixture();
    writeFileSync(f.cacheDir, "not a directory");
    const loaded = await f.load();
    expectWorking(loaded, f.pkg);
    expect(loaded.counts).toEqual({ fromCache: 0, compiled: 0 });
    expect(loaded.stderr).toContain(
      `the code cache directory ${f.cacheDir} is not a directory, so it is not used`,
    );
  });

  it("two processes writing the same entries at once leave whole entries", async () => {
    const f = fixture();
    const both = await Promise.all([f.load(), f.load()]);
    for (const loaded of both) expectWorking(loaded, f.pkg);
    // two entries and nothing else: no temporary file left behind
    const entries = readdirSync(f.cacheDir);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(entry).toMatch(/^[0-9a-f]{16}-[0-9a-f]{24}$/);
    expect((await f.load()).counts).toEqual({ fromCache: 2, compiled: 0 });
  });
});

describe("CodeCache where Node has its own compile cache", { timeout: 60_000 }, () => {
  it.runIf(nodeCompilesWithCache)(
    "steps aside: the package loads as Node loads it, nothing written",
    async () => {
      const f = fixture();
      const loaded = await f.load();
      expectWorking(loaded, f.pkg);
      expect(loaded.counts).toEqual({ fromCache: 0, compiled: 0 });
      expect(loaded.written).toBe(0);
      expect(() => statSync(f.cacheDir)).toThrow();
    },
  );
});

describe("the code cache's directory", () => {
  it("lives under XDG_CACHE_HOME when it is absolute, else ~/.cache", () => {
    expect(defaultCodeCacheDir({ XDG_CACHE_HOME: "/var/cache/u" })).toBe("/var/cache/u/clawtools/code-cache");
    expect(defaultCodeCacheDir({ XDG_CACHE_HOME: "relative" })).toBe(
      path.join(os.homedir(), ".cache", "clawtools", "code-cache"),
    );
  });
});
