import { type FSWatcher, watch } from "node:fs";
import path from "node:path";
import type { ResourceChange } from "@clawtools/core/resources";
import { backgroundClock } from "@clawtools/core/time";
import { listMemoryFiles } from "./indexer/files.js";
import { memoryFileUri } from "./resource-links.js";

/** How long changes settle before they are told (an editor's save is several events). */
const SETTLE_MS = 100;

/**
 * Tells `listener` of changes to a workspace's memory files (MEMORY.md, memory.md, memory/**):
 * the list changed when a file came or went, and each changed file's URI (a subscriber's
 * `notifications/resources/updated`). Watches the files on disk, so a change made by any tool,
 * process or editor is heard. Returns the stop.
 */
export function watchMemoryFiles(
  workspaceDir: string,
  extraPaths: string[] | undefined,
  listener: (change: ResourceChange) => void,
): () => void {
  let stopped = false;
  let timer: unknown;
  let known: Map<string, number> | undefined;
  const listing = async () =>
    new Map((await listMemoryFiles(workspaceDir, extraPaths)).files.map((f) => [f.rel, f.size] as const));
  void listing()
    .then((files) => {
      known ??= files;
    })
    .catch(() => {});
  const touched = new Set<string>();

  const settle = async () => {
    const before = known ?? new Map<string, number>();
    const now = await listing().catch(() => before);
    known = now;
    if (stopped) return;
    const changed = [...touched];
    touched.clear();
    const came = [...now.keys()].some((rel) => !before.has(rel));
    const went = [...before.keys()].some((rel) => !now.has(rel));
    if (came || went) listener({});
    for (const rel of changed) if (now.has(rel)) listener({ uri: memoryFileUri(rel) });
  };
  const schedule = (rel: string) => {
    touched.add(rel);
    backgroundClock.clearTimeout(timer);
    timer = backgroundClock.setTimeout(() => void settle(), SETTLE_MS);
  };

  const watchers: FSWatcher[] = [];
  let memoryWatcher: FSWatcher | undefined;
  const watchMemoryDir = () => {
    if (memoryWatcher || stopped) return;
    try {
      memoryWatcher = watch(path.join(workspaceDir, "memory"), { recursive: true }, (_event, file) => {
        if (file && String(file).toLowerCase().endsWith(".md"))
          schedule(`memory/${String(file).split(path.sep).join("/")}`);
      });
      memoryWatcher.on("error", () => {});
      memoryWatcher.unref();
    } catch {
      // no memory/ yet: the workspace's watcher attaches it when it appears
    }
  };
  try {
    const top = watch(workspaceDir, (_event, file) => {
      const name = file ? String(file) : "";
      if (name === "memory") {
        watchMemoryDir();
        schedule("memory");
      } else if (name.toLowerCase() === "memory.md") schedule(name);
    });
    top.on("error", () => {});
    top.unref();
    watchers.push(top);
  } catch {
    // a workspace that cannot be watched: no change notifications, reads still work
  }
  watchMemoryDir();
  return () => {
    stopped = true;
    backgroundClock.clearTimeout(timer);
    for (const w of watchers) w.close();
    memoryWatcher?.close();
  };
}
