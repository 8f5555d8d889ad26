// A toolset whose tools and resources change, telling its listeners as serve's does (a mounted
// MCP server that comes back, a command's output that grows): what list_changed tests serve.
import { type AnyAgentTool, Type } from "@clawtools/core";
import type { ResourceChange } from "@clawtools/core/resources";

export const namedTool = (name: string): AnyAgentTool => ({
  name,
  label: name,
  description: `The ${name} tool`,
  parameters: Type.Object({}),
  execute: async () => ({ content: [{ type: "text", text: name }], details: undefined }),
});

/** Starts with the tool `<name>-first` and serves the resource `memo://<name>/notes`. */
export function changingToolset(name: string) {
  let tools = [namedTool(`${name}-first`)];
  const toolListeners = new Set<() => void>();
  const resourceListeners = new Set<(change: ResourceChange) => void>();
  return {
    get tools() {
      return tools;
    },
    onToolsChanged(listener: () => void) {
      toolListeners.add(listener);
      return () => toolListeners.delete(listener);
    },
    resources: {
      available: true,
      list: async () => [{ uri: `memo://${name}/notes`, name: "notes" }],
      templates: async () => [],
      read: async (uri: string) => ({ uri, text: "notes" }),
      watch(listener: (change: ResourceChange) => void) {
        resourceListeners.add(listener);
        return () => resourceListeners.delete(listener);
      },
    },
    addTool(extra: string) {
      tools = [...tools, namedTool(extra)];
      for (const l of toolListeners) l();
    },
    /** A change of the resource list (no `uri`) or of one resource. */
    touch(uri?: string) {
      for (const l of resourceListeners) l(uri === undefined ? {} : { uri });
    },
    /** How many listen to its tools and resources. */
    listeners: () => toolListeners.size + resourceListeners.size,
  };
}
