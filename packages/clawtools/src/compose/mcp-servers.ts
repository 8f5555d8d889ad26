import type { ConnectedMcpServer } from "@clawtools/mcp";
import { type ClawtoolsPlugin, definePlugin, type ToolRegistry } from "@clawtools/core";
import { retryUntilConnected } from "./mcp-retry.js";
import { servedEverywhere } from "./plugins.js";
import { BundleConfigError } from "./errors.js";

/** The longest `mcpServers` key: tool names are served as `<name>__<tool>`, 64 characters at most. */
export const MAX_SERVER_NAME_LENGTH = 32;
/**
 * Mounts the config file's `mcpServers` (Claude Desktop's shape): each server's tools are served
 * as `<name>__<tool>` through the same policy, under every profile as a named plugin's are, and
 * the connection (a stdio server's process) closes with the toolset's registry. A bad entry fails
 * the start naming it. A server that fails to start is reported on stderr and tried again in the
 * background (capped exponential backoff, until the registry is disposed); when it comes back
 * its tools are registered and `served.add` gets them. A server whose connection drops is taken
 * out (`served.remove`) and retried the same way.
 */
export async function mountMcpServers(
  servers: Record<string, unknown>,
  registry: ToolRegistry,
  where: string,
  warn: (message: string) => void,
  served?: ServedMcpTools,
): Promise<MountedMcpServer[]> {
  const names = Object.keys(servers);
  if (names.length === 0) return [];
  const { connectMcpServer, mcpServerConfigProblem } = await import("@clawtools/mcp");
  for (const name of names) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
      throw new BundleConfigError(
        `${where}: mcpServers: "${name}" must be letters, digits, - and _ (its tools are named ${name}__<tool>)`,
      );
    // `<name>__` leaves a tool at least 30 of a served name's 64 characters
    if (name.length > MAX_SERVER_NAME_LENGTH)
      throw new BundleConfigError(
        `${where}: mcpServers: "${name.slice(0, 40)}…" is ${name.length} characters; a server name is at most ${MAX_SERVER_NAME_LENGTH} (its tools are served as <name>__<tool>, and a tool name is at most 64 characters)`,
      );
    const problem = mcpServerConfigProblem(servers[name]);
    if (problem) throw new BundleConfigError(`${where}: mcpServers.${name}: ${problem}`);
  }
  const mount: Mount = { registry, warn, connect: connectMcpServer, served };
  const mounted: MountedMcpServer[] = [];
  // servers start side by side: one slow server does not hold the others up
  const results = await Promise.allSettled(
    names.map((name) => connectMcpServer(name, servers[name] as Parameters<typeof connectMcpServer>[1])),
  );
  for (const [index, result] of results.entries()) {
    const name = names[index]!;
    if (result.status === "rejected") {
      warn(
        `[clawtools] MCP server "${name}" did not start and is skipped: ${(result.reason as Error).message} (retrying in the background; its tools appear when it comes back)`,
      );
      retryInBackground(name, servers[name], mount);
      continue;
    }
    const entry = registerServer(name, servers[name], result.value, mount);
    if (typeof entry === "string") {
      await result.value.close();
      throw new BundleConfigError(`${where}: mcpServers.${name}: ${entry}`);
    }
    mounted.push(entry);
  }
  return mounted;
}

export type MountedMcpServer = { plugin: ClawtoolsPlugin; spec: string; tools: string[] };

/** What serves the tools: told when a server comes back and when one goes away. */
export interface ServedMcpTools {
  add(mounted: MountedMcpServer): void;
  remove(names: string[], plugin?: ClawtoolsPlugin): void;
}

interface Mount {
  registry: ToolRegistry;
  warn: (message: string) => void;
  connect: typeof import("@clawtools/mcp").connectMcpServer;
  served: ServedMcpTools | undefined;
}

/**
 * Registers a connected server's tools as plugin `mcp:<name>`; a string says why it could not.
 * If the connection drops before serve stops, its tools are taken out and it is retried.
 */
function registerServer(
  name: string,
  config: unknown,
  server: ConnectedMcpServer,
  mount: Mount,
): MountedMcpServer | string {
  let stopping = false;
  const plugin = servedEverywhere(
    definePlugin({
      id: `mcp:${name}`,
      version: "0.0.0",
      description: `MCP server "${name}" (config mcpServers)`,
      tools: server.tools.map((tool) => ({ factory: tool })),
      // its resources under clawtools://mcp/<name>/…, served with its tools (the same policy)
      ...(server.resources ? { resources: server.resources } : {}),
      dispose: () => {
        stopping = true;
        return server.close();
      },
    }),
  );
  // registered even when refused: the registry's dispose then closes the connection
  const problems = mount.registry.registerPlugin(plugin);
  if (problems.length > 0) return problems.map((d) => d.message).join("; ");
  const tools = server.tools.map((t) => t.name);
  void server.closed.then(() => {
    if (stopping) return;
    for (const tool of tools) mount.registry.unregister(tool);
    mount.served?.remove(tools, plugin);
    mount.warn(
      `[clawtools] MCP server "${name}" went away: its tools are not served until it comes back (retrying)`,
    );
    retryInBackground(name, config, mount);
  });
  return { plugin, spec: `mcpServers.${name}`, tools };
}

/**
 * Tries a server that did not start again until the registry is disposed (serve stopping): a
 * tool-less plugin holds the abort, so the registry's dispose ends the retries.
 */
function retryInBackground(name: string, config: unknown, mount: Mount): void {
  const stop = new AbortController();
  let retrying: Promise<void> = Promise.resolve();
  mount.registry.registerPlugin(
    definePlugin({
      id: `mcp-retry:${name}`,
      version: "0.0.0",
      description: `retries MCP server "${name}" until it starts`,
      tools: [],
      // a try under way gives up and its process is ended before serve's stop goes on
      dispose: async () => {
        stop.abort();
        await retrying;
      },
    }),
  );
  retrying = retryUntilConnected(
    (signal) => mount.connect(name, config as Parameters<Mount["connect"]>[1], { signal }),
    (server) => {
      const entry = registerServer(name, config, server, mount);
      if (typeof entry === "string") {
        mount.warn(`[clawtools] MCP server "${name}" came back but its tools cannot be served: ${entry}`);
        void server.close().catch(() => {});
        return;
      }
      mount.warn(`[clawtools] MCP server "${name}" came back: serving ${entry.tools.join(", ")}`);
      mount.served?.add(entry);
    },
    { signal: stop.signal },
  );
}
