import path from "node:path";
import type { FsBridge, FsStat } from "@clawtools/core";
import type { default as createIgnore, Ignore } from "ignore";

export interface WalkEntry {
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
  abs: string;
  /** Symlinks are reported as such and never followed, like rg and fd by default. */
  type: "file" | "directory" | "symlink";
}

// the matcher (a CommonJS package) loads with the first .gitignore met, not with the section:
// a read or an ls never pays for it
let loadIgnore: Promise<typeof createIgnore> | undefined;
const gitignore = () => {
  loadIgnore ??= import("ignore").then((m) => m.default);
  return loadIgnore;
};

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

type Listing = Array<{ name: string; type: FsStat["type"] }>;

interface PendingDir {
  abs: string;
  rel: string;
  rules: Array<{ base: string; ig: Ignore }>;
  listing?: Promise<Listing | null>;
}

/** Directories listed ahead of the walk: their readdir calls overlap instead of queueing. */
const LIST_AHEAD = 16;

/**
 * Walks a directory through the bridge, dotfiles included, honouring `.gitignore` files at
 * every level (like rg and fd) and skipping `.git` and `node_modules`. Symlinks are listed
 * but never followed: no cycles, and nothing outside the tree is reached through them.
 */
export async function* walk(bridge: FsBridge, root: string, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
  const readdir = bridge.readdir?.bind(bridge);
  if (!readdir) throw new Error("This file-system bridge cannot list directories (readdir missing)");
  const stack: PendingDir[] = [{ abs: root, rel: "", rules: [] }];
  const list = (dir: PendingDir) => {
    dir.listing ??= readdir({ filePath: dir.abs }).catch(() => null);
    return dir.listing;
  };
  const listAhead = () => {
    for (let i = Math.max(0, stack.length - LIST_AHEAD); i < stack.length; i++) list(stack[i]!);
  };
  while (stack.length > 0) {
    signal?.throwIfAborted();
    const dir = stack.pop()!;
    const entries = await list(dir);
    if (!entries) continue;
    const rules = [...dir.rules];
    if (entries.some((e) => e.name === ".gitignore" && e.type === "file")) {
      const matcher = await gitignore();
      try {
        const text = (await bridge.readFile({ filePath: path.join(dir.abs, ".gitignore") })).toString("utf8");
        rules.push({ base: dir.rel, ig: matcher().add(text) });
      } catch {
        // unreadable .gitignore: nothing to honour
      }
    }
    // code-unit order: stable across locales and far cheaper than localeCompare
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: PendingDir[] = [];
    const prefix = dir.abs.endsWith(path.sep) ? dir.abs : dir.abs + path.sep;
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const type = entry.type;
      if (type !== "file" && type !== "directory" && type !== "symlink") continue;
      const rel = dir.rel ? `${dir.rel}/${entry.name}` : entry.name;
      const ignored =
        rules.length > 0 &&
        rules.some(({ base, ig }) => {
          const local = base ? rel.slice(base.length + 1) : rel;
          return ig.ignores(type === "directory" ? `${local}/` : local);
        });
      if (ignored) continue;
      const abs = prefix + entry.name;
      yield { rel, abs, type };
      if (type === "directory") subdirs.push({ abs, rel, rules });
    }
    stack.push(...subdirs.reverse());
    listAhead();
  }
}
