import {
  type ClawtoolsPlugin,
  defineSectionPlugin,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import { type NodesConfig, NodesConfigSchema } from "./config.js";
import type { NodeHost } from "./host.js";
import { LocalNodeHost } from "./local/local-host.js";
import { createNodesTool } from "./tools/nodes.js";

export interface NodesPluginOptions extends NodesConfig {
  /** A node host of your own (a Gateway-backed one); wins over `host`. */
  nodeHost?: NodeHost;
}

export const NO_NODE_HOST =
  'no node host configured (set config.nodes.host to "local", or run clawtools serve --nodes local)';

/** The nodes section: registered only when a node host is configured, so a model never keeps calling a tool that can only fail. */
export function createNodesPlugin(
  options: NodesPluginOptions = {},
): ClawtoolsPlugin & { readonly localHosts: LocalNodeHost[] } {
  const { nodeHost, ...inCode } = options;
  const localHosts: LocalNodeHost[] = [];
  return defineSectionPlugin({
    module: import.meta.url,
    description: "Nodes: this machine as a node behind a NodeHost interface",
    section: "nodes",
    configSchema: NodesConfigSchema,
    config: inCode,
    tools: (config) => {
      const hostFor = (ctx: ToolContext): NodeHost => {
        if (nodeHost) return nodeHost;
        const { host: kind, nodeId } = config.read(ctx);
        if (kind !== "local") throw new ToolUnavailableError(NO_NODE_HOST);
        const host = new LocalNodeHost({ ...(nodeId ? { nodeId } : {}) });
        localHosts.push(host);
        return host;
      };
      return [{ name: "nodes", factory: (ctx) => createNodesTool(ctx, { host: hostFor(ctx) }) }];
    },
    dispose: async () => {
      await nodeHost?.dispose?.();
    },
    members: { localHosts },
  });
}

export const nodesPlugin = createNodesPlugin();
export default nodesPlugin;
