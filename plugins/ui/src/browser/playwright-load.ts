import { createRequire } from "node:module";
import path from "node:path";
import type { BrowserConfig } from "../config.js";
import { CodeCache, defaultCodeCacheDir } from "./code-cache.js";

// one load of playwright-core per process, so one cache of its compiled bundles
let cache: CodeCache | undefined;

/**
 * playwright-core on first use, through require: it is CommonJS, and an import() of it costs
 * about a third more CPU (Node scans its bundles for named exports) and 15 MB more memory. Its
 * bundles compile from the code cache (`browser.codeCacheDir`, off with `false`).
 */
export function loadPlaywright(config: BrowserConfig): typeof import("playwright-core") {
  const require = createRequire(import.meta.url);
  if (config.codeCacheDir === false) return require("playwright-core");
  cache ??= new CodeCache(config.codeCacheDir ?? defaultCodeCacheDir());
  return cache.require(require, "playwright-core", path.dirname(require.resolve("playwright-core")));
}

/** Writes the code cache of what the load compiled without it (once; later calls share it). */
export function savePlaywrightCodeCache(): Promise<number> {
  return cache?.save() ?? Promise.resolve(0);
}
