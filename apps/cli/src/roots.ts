import { statSync } from "node:fs";
import path from "node:path";
import type { Toolset } from "@clawtools/core";
import type { ToolMeta } from "@clawtools/core/catalog";
import type { ResourceChange } from "@clawtools/core/resources";
import type { McpRoot, McpToolsetLike } from "@clawtools/mcp";

/** The client root serve works in: `--root`'s (by name or path), else the first; or why none. */
export function pickRoot(roots: McpRoot[], wanted?: string): { root: McpRoot } | { problem: string } {
  if (roots.length === 0) return { problem: "the client offers no file:// root" };
  const root =
    wanted === undefined ? roots[0] : roots.find((r) => r.name === wanted || r.path === path.resolve(wanted));
  if (!root)
    return {
      problem: `none of the client's roots is "${wanted}" (--root or the config file's root); it offers ${roots.map((r) => r.name ?? r.path).join(", ")}`,
    };
  try {
    if (!statSync(root.path).isDirectory()) return { problem: `the root ${root.path} is not a directory` };
  } catch {
    return { problem: `the root ${root.path} does not exist on this machine` };
  }
  return { root };
}

interface RootableToolset extends McpToolsetLike {
  meta?(name: string): ToolMeta | undefined;
  forWorkspace(workspaceDir: string): Toolset;
}

/**
 * The toolset `serve` hands the MCP server when started without --workspace: its tools are the
 * start toolset's until the client's roots say otherwise, then those of a toolset rooted in the
 * chosen root, rebuilt each time the client announces a change. A root that cannot be used
 * keeps the workspace it has and says why. Toolsets a change replaced are disposed with the
 * server (a call may still be running on one).
 */
export function followClientRoots(
  base: RootableToolset,
  start: string,
  options: { root?: string; log: (line: string) => void },
) {
  let workspace = start;
  // undefined until a root is picked: the start toolset's tools; either follows MCP servers that come back
  let rooted: Toolset | undefined;
  const built: Toolset[] = [];
  const resources = base.resources ? followingResources(() => (rooted ?? base).resources!) : undefined;
  const toolset: McpToolsetLike = {
    get tools() {
      return (rooted ?? base).tools;
    },
    ...(base.onToolsChanged ? { onToolsChanged: base.onToolsChanged.bind(base) } : {}),
    meta: (name) => base.meta?.(name),
    // the resources of the toolset serving now (a root change keeps the session's runtime)
    ...(resources ? { resources: resources.view } : {}),
    ...(base.prompts ? { prompts: followingPrompts(() => (rooted ?? base).prompts!) } : {}),
    dispose: async () => {
      await Promise.allSettled(built.map((t) => t.dispose()));
      await base.dispose?.();
    },
  };
  const onRoots = (roots: McpRoot[]) => {
    const picked = pickRoot(roots, options.root);
    if ("problem" in picked) {
      options.log(`workspace stays ${workspace}: ${picked.problem}`);
      return;
    }
    if (picked.root.path === workspace) return;
    const next = base.forWorkspace(picked.root.path);
    built.push(next);
    workspace = picked.root.path;
    rooted = next;
    resources?.switched();
    options.log(
      `workspace is now ${workspace} (the client's root${picked.root.name ? ` "${picked.root.name}"` : ""})`,
    );
  };
  return { toolset, onRoots, workspace: () => workspace };
}

type Resources = NonNullable<McpToolsetLike["resources"]>;

/**
 * Resources that are always those of `current()`'s toolset. A watch follows the toolset too:
 * when the root changes (`switched`), each watcher stops hearing the old workspace (another
 * client's, perhaps) and hears the new one's, told the list changed.
 */
function followingResources(current: () => Resources) {
  const watchers = new Map<(change: ResourceChange) => void, () => void>();
  const attach = (listener: (change: ResourceChange) => void) => current().watch?.(listener) ?? (() => {});
  const view: Resources = {
    get available() {
      return current().available;
    },
    list: () => current().list(),
    templates: () => current().templates(),
    read: (uri) => current().read(uri),
    watch: (listener) => {
      watchers.set(listener, attach(listener));
      return () => {
        watchers.get(listener)?.();
        watchers.delete(listener);
      };
    },
    complete: (uriTemplate, request) =>
      current().complete?.(uriTemplate, request) ?? Promise.resolve({ values: [] }),
  };
  const switched = () => {
    for (const [listener, stop] of [...watchers]) {
      stop();
      watchers.set(listener, attach(listener));
      listener({});
    }
  };
  return { view, switched };
}

/** Prompts that are always those of `current()`'s toolset. */
function followingPrompts(current: () => NonNullable<McpToolsetLike["prompts"]>): McpToolsetLike["prompts"] {
  return {
    get available() {
      return current().available;
    },
    list: () => current().list(),
    get: (name, args) => current().get(name, args),
    complete: (name, request) => current().complete(name, request),
    watch: (listener) => current().watch?.(listener) ?? (() => {}),
  };
}
