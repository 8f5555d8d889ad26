import type { FsBridge, FsStat } from "@clawtools/core";

/** Below this size counting is cheaper than remembering. */
const MIN_SIZE = 1024 * 1024;
const MAX_ENTRIES = 64;

const caches = new WeakMap<FsBridge, Map<string, number>>();

const keyOf = (filePath: string, stat: FsStat) => `${filePath}\0${stat.size}\0${stat.mtimeMs}`;

/**
 * Line totals of big files, per bridge, keyed by path, size and mtime: paging through a huge
 * file counts its lines once, and every later page stops reading where the page ends.
 */
export const lineCounts = {
  get(bridge: FsBridge, filePath: string, stat: FsStat): number | undefined {
    return caches.get(bridge)?.get(keyOf(filePath, stat));
  },
  set(bridge: FsBridge, filePath: string, stat: FsStat, total: number): void {
    if (stat.size < MIN_SIZE) return;
    const cache = caches.get(bridge) ?? new Map<string, number>();
    caches.set(bridge, cache);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(keyOf(filePath, stat), total);
  },
};
