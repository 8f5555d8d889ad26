import { type ClawtoolsPlugin, definePlugin, type ToolRegistry } from "@clawtools/core";
import { servedEverywhere } from "./plugins.js";
import { UsageError } from "./usage.js";

/**
 * Mounts the config file's `mcpServers` (Claude Desktop's shape): each server's tools are served
 * as `<name>__<tool>` through the same policy, under every profile as a named plugin's are, and
 * the connection (a stdio server's process) closes with the toolset's registry. A server that
 * fails to start is reported on stderr and skipped; a bad entry fails the start naming it.
 */
export async function mountMcpServers(
  servers: Record<string, unknown>,
  registry: ToolRegistry,
  where: string,
  warn: (message: string) => void,
): Promise<Array<{ plugin: ClawtoolsPlugin; spec: string; tools: string[] }>> {
  const names = Object.keys(servers);
  if (names.length === 0) return [];
  const { connectMcpServer, mcpServerConfigProblem } = await import("@clawtools/mcp");
  for (const name of names) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
      throw new UsageError(
        `${where}: mcpServers: "${name}" must be letters, digits, - and _ (its tools are named ${name}__<tool>)`,
      );
    const problem = mcpServerConfigProblem(servers[name]);
    if (problem) throw new UsageError(`${where}: mcpServers.${name}: ${problem}`);
  }
  const mounted: Array<{ plugin: ClawtoolsPlugin; spec: string; tools: string[] }> = [];
  // servers start side by side: one slow server does not hold the others up
  const results = await Promise.allSettled(
    names.map((name) => connectMcpServer(name, servers[name] as Parameters<typeof connectMcpServer>[1])),
  );
  for (const [index, result] of results.entries()) {
    const name = names[index]!;
    if (result.status === "rejected") {
      warn(
        `[clawtools] MCP server "${name}" did not start and is skipped: ${(result.reason as Error).message}`,
      );
      continue;
    }
    const server = result.value;
    const plugin = servedEverywhere(
      definePlugin({
        id: `mcp:${name}`,
        version: "0.0.0",
        description: `MCP server "${name}" (config mcpServers)`,
        tools: server.tools.map((tool) => ({ factory: tool })),
        dispose: () => server.close(),
      }),
    );
    const problems = registry.registerPlugin(plugin);
    if (problems.length > 0) {
      await server.close();
      throw new UsageError(`${where}: mcpServers.${name}: ${problems.map((d) => d.message).join("; ")}`);
    }
    mounted.push({ plugin, spec: `mcpServers.${name}`, tools: server.tools.map((t) => t.name) });
  }
  return mounted;
}
