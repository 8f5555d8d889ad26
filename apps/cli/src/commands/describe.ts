import type { CommonOptions } from "../options.js";
import { buildToolset, type CliToolset } from "../toolset.js";
import { UsageError } from "../usage-error.js";

export async function describeCommand(options: CommonOptions, out: (line: string) => void): Promise<number> {
  const name = options.positionals[0]!;
  const set = await buildToolset({ ...options, owner: true });
  try {
    return describe(set, name, out);
  } finally {
    await set.close();
  }
}

function describe(set: CliToolset, name: string, out: (line: string) => void): number {
  const tool = set.tools.find((t) => t.name === name);
  const meta = set.meta(name);
  if (!tool) {
    const why = set.diagnostics.find((d) => d.toolId === name)?.message;
    throw new UsageError(
      why ? `tool "${name}" is not available: ${why}` : `unknown tool "${name}" (see clawtools list)`,
    );
  }
  const info = {
    name: tool.name,
    label: tool.label,
    section: meta?.sectionId,
    plugin: meta?.pluginId,
    // where it comes from: its section (and which implementation), a named plugin, a mounted MCP server
    source: set.describe().served.find((t) => t.name === name)?.source,
    profiles: meta?.profiles ?? [],
    readOnly: meta?.readOnly ?? false,
    destructive: meta?.destructive ?? false,
    ownerOnly: meta?.ownerOnly ?? tool.ownerOnly ?? false,
    description: tool.description,
    parameters: tool.parameters,
  };
  out(JSON.stringify(info, null, 2));
  return 0;
}
