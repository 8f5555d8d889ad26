import path from "node:path";
import type { FsBridge, FsStat } from "@clawtools/core";
import ignore, { type Ignore } from "ignore";

export interface WalkEntry {
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
  abs: string;
  /** Symlinks are reported as such and never followed, like rg and fd by default. */
  type: "file" | "directory" | "symlink";
}

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

/**
 * Walks a directory through the bridge, dotfiles included, honouring `.gitignore` files at
 * every level (like rg and fd) and skipping `.git` and `node_modules`. Symlinks are listed
 * but never followed: no cycles, and nothing outside the tree is reached through them.
 */
export async function* walk(bridge: FsBridge, root: string, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
  if (!bridge.readdir) throw new Error("This file-system bridge cannot list directories (readdir missing)");
  const stack: Array<{ abs: string; rel: string; rules: Array<{ base: string; ig: Ignore }> }> = [
    { abs: root, rel: "", rules: [] },
  ];
  while (stack.length > 0) {
    signal?.throwIfAborted();
    const dir = stack.pop()!;
    let entries: Array<{ name: string; type: FsStat["type"] }>;
    try {
      entries = await bridge.readdir({ filePath: dir.abs });
    } catch {
      continue;
    }
    const rules = [...dir.rules];
    if (entries.some((e) => e.name === ".gitignore" && e.type === "file")) {
      try {
        const text = (await bridge.readFile({ filePath: path.join(dir.abs, ".gitignore") })).toString("utf8");
        rules.push({ base: dir.rel, ig: ignore().add(text) });
      } catch {
        // unreadable .gitignore: nothing to honour
      }
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const subdirs: typeof stack = [];
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const rel = dir.rel ? `${dir.rel}/${entry.name}` : entry.name;
      const abs = path.join(dir.abs, entry.name);
      const type = entry.type;
      if (type !== "file" && type !== "directory" && type !== "symlink") continue;
      const ignored = rules.some(({ base, ig }) => {
        const local = base ? rel.slice(base.length + 1) : rel;
        return ig.ignores(type === "directory" ? `${local}/` : local);
      });
      if (ignored) continue;
      yield { rel, abs, type };
      if (type === "directory") subdirs.push({ abs, rel, rules });
    }
    stack.push(...subdirs.reverse());
  }
}
