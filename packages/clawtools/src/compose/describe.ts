import type { AnyAgentTool, ClawtoolsPlugin, ToolDiagnostic, ToolRegistry } from "@clawtools/core";
import type { DiscoveredSection } from "../discover.js";
import type { SectionImplementations } from "./sections.js";

/** Where a tool comes from. */
export type ToolSource =
  | { kind: "section"; section: string; package?: string; implementation?: string }
  | { kind: "plugin"; plugin: string; spec: string }
  | { kind: "mcp"; server: string; spec: string };

export interface BundleDescription {
  /** The tools served, each with its source. */
  served: Array<{ name: string; source?: ToolSource }>;
  /** Tools registered but not served, and why (a policy step, a missing key…). */
  leftOut: Array<{ name: string; reason: string; source?: ToolSource }>;
  /** Every section: its package, whether it is installed (and why not), its implementation. */
  sections: Array<{
    section: string;
    packageName: string;
    installed: boolean;
    missing?: string;
    implementation?: string;
    /** A named plugin took its place. */
    replacedBy?: string;
  }>;
  /** Named plugins and mounted MCP servers, with their tools. */
  plugins: Array<{ id: string; spec: string; kind: "plugin" | "mcp"; tools: string[] }>;
  /** Where sessions, runs and cron jobs live. */
  state: string;
}

/** A source for each registered tool: its section, the named plugin or the MCP server it came from. */
export function toolSources(input: {
  registry: ToolRegistry;
  sections: readonly DiscoveredSection[];
  implementations: SectionImplementations;
  namedPlugins: ReadonlyArray<{ plugin: ClawtoolsPlugin; spec: string; tools: string[] }>;
}): Map<string, ToolSource> {
  const out = new Map<string, ToolSource>();
  for (const named of input.namedPlugins) {
    const mcp = named.plugin.id.startsWith("mcp:");
    for (const tool of named.tools)
      out.set(
        tool,
        mcp
          ? { kind: "mcp", server: named.plugin.id.slice(4), spec: named.spec }
          : { kind: "plugin", plugin: named.plugin.id, spec: named.spec },
      );
  }
  for (const meta of input.registry.list()) {
    if (out.has(meta.id) || !meta.sectionId) continue;
    const pkg = input.sections.find((s) => s.section === meta.sectionId)?.packageName;
    const how = input.implementations[meta.sectionId];
    out.set(meta.id, {
      kind: "section",
      section: meta.sectionId,
      ...(pkg ? { package: pkg } : {}),
      ...(how ? { implementation: how } : {}),
    });
  }
  return out;
}

export function describeBundle(input: {
  tools: readonly AnyAgentTool[];
  diagnostics: readonly ToolDiagnostic[];
  registry: ToolRegistry;
  sections: readonly DiscoveredSection[];
  implementations: SectionImplementations;
  namedPlugins: ReadonlyArray<{ plugin: ClawtoolsPlugin; spec: string; tools: string[] }>;
  replaced: readonly ClawtoolsPlugin[];
  state: string;
}): BundleDescription {
  const sources = toolSources(input);
  const served = new Set(input.tools.map((t) => t.name));
  const leftOut = new Map<string, string>();
  for (const d of input.diagnostics)
    if (!served.has(d.toolId) && !leftOut.has(d.toolId)) leftOut.set(d.toolId, d.reason);
  const replacedBy = (section: string) =>
    input.replaced.some((p) => p.section === section)
      ? input.namedPlugins.find((n) => n.plugin.section === section)?.plugin.id
      : undefined;
  return {
    served: input.tools.map((t) => {
      const source = sources.get(t.name);
      return { name: t.name, ...(source ? { source } : {}) };
    }),
    leftOut: [...leftOut].map(([name, reason]) => {
      const source = sources.get(name);
      return { name, reason, ...(source ? { source } : {}) };
    }),
    sections: input.sections.map((s) => {
      const by = replacedBy(s.section);
      const how = input.implementations[s.section];
      return {
        section: s.section,
        packageName: s.packageName,
        installed: Boolean(s.plugin),
        ...(s.missing ? { missing: s.missing } : {}),
        ...(how && s.plugin && !by ? { implementation: how } : {}),
        ...(by ? { replacedBy: by } : {}),
      };
    }),
    plugins: input.namedPlugins.map((n) => ({
      id: n.plugin.id,
      spec: n.spec,
      kind: n.plugin.id.startsWith("mcp:") ? "mcp" : "plugin",
      tools: [...n.tools],
    })),
    state: input.state,
  };
}
