import { getCoreSections, getCoreToolCatalog, type ToolMeta } from "@clawtools/core/catalog";
import type { ToolSource } from "clawtools/compose";
import type { CommonOptions } from "../options.js";
import { buildToolset, type CliToolset } from "../toolset.js";

interface Row {
  tool: string;
  section: string;
  available: boolean;
  /** Installed, but its factory leaves it out here (a missing API key, say): why. */
  unavailable?: string;
  /** Whether `serve` with the same options and config serves it. */
  served: boolean;
  /** Available but not served (a profile, --deny…): why. */
  notServed?: string;
  profiles: string[];
  description: string;
  plugin?: string;
  /** Where it comes from: its section, a named plugin or a mounted MCP server. */
  source?: ToolSource;
}

/** serve's default profile: list shows what serve would serve with the same options. */
const SERVE_DEFAULTS = { profile: "coding" };

/**
 * Every catalog tool (available or not) plus every tool of the bundle serve would compose with
 * these options and config (named plugins and mounted MCP servers included), grouped by section,
 * each with whether serve serves it and where it comes from.
 */
export async function listCommand(options: CommonOptions, out: (line: string) => void): Promise<number> {
  const set = await buildToolset(options, SERVE_DEFAULTS);
  try {
    return list(set, options, out);
  } finally {
    await set.close();
  }
}

function list(set: CliToolset, options: CommonOptions, out: (line: string) => void): number {
  const registered = new Map(set.registry.list().map((meta) => [meta.id, meta]));
  // resolve in this workspace and environment, so tools that need a key or a setting say so
  const { diagnostics } = set.registry.resolveWithDiagnostics(set.context, { allowlist: ["group:plugins"] });
  const leftOut = new Map(diagnostics.map((d) => [d.toolId, d.reason]));
  const described = set.describe();
  const served = new Map(set.tools.map((t) => [t.name, t]));
  const sources = new Map(
    [...described.served, ...described.leftOut].flatMap((t) => (t.source ? [[t.name, t.source]] : [])),
  );
  const notServed = new Map(described.leftOut.map((t) => [t.name, t.reason]));
  const rows: Row[] = [];
  const row = (meta: ToolMeta, installed: boolean): Row => {
    const available = installed && !leftOut.has(meta.id);
    const source = sources.get(meta.id);
    return {
      tool: meta.id,
      section: meta.sectionId,
      available,
      ...(installed && leftOut.has(meta.id) ? { unavailable: leftOut.get(meta.id)! } : {}),
      served: served.has(meta.id),
      ...(available && !served.has(meta.id)
        ? { notServed: notServed.get(meta.id) ?? "not served with these options" }
        : {}),
      profiles: meta.profiles,
      description: meta.description || served.get(meta.id)?.description || "",
      ...(meta.pluginId ? { plugin: meta.pluginId } : {}),
      ...(source ? { source } : {}),
    };
  };
  for (const meta of getCoreToolCatalog())
    rows.push(row(registered.get(meta.id) ?? meta, registered.has(meta.id)));
  for (const meta of registered.values())
    if (!rows.some((r) => r.tool === meta.id)) rows.push(row(meta, true));
  if (options.json) {
    out(
      JSON.stringify(
        {
          sections: described.sections,
          plugins: described.plugins,
          served: described.served.map((t) => t.name),
          tools: rows,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const sections = [...getCoreSections().map((s) => s.id), ...new Set(rows.map((r) => r.section))];
  const width = Math.max(...rows.map((r) => r.tool.length)) + 2;
  const profileWidth = Math.max(...rows.map((r) => r.profiles.join(",").length)) + 2;
  for (const id of [...new Set(sections)]) {
    const inSection = rows.filter((r) => r.section === id);
    if (inSection.length === 0) continue;
    const label = getCoreSections().find((s) => s.id === id)?.label ?? id;
    const found = described.sections.find((s) => s.section === id);
    const from = inSection[0]?.source;
    const status = found
      ? found.installed
        ? `${found.packageName}${found.replacedBy ? ` (replaced by plugin ${found.replacedBy})` : found.implementation && found.implementation !== "embedded" ? ` (${found.implementation})` : ""}`
        : `${found.packageName}: ${found.missing}`
      : from?.kind === "mcp"
        ? `MCP server "${from.server}" (${from.spec})`
        : from?.kind === "plugin"
          ? `plugin ${from.spec}`
          : "plugin";
    out(`${label} (${id}) — ${status}`);
    for (const r of inSection) {
      const profiles = r.profiles.length ? r.profiles.join(",") : "-";
      const why = r.unavailable ?? (r.notServed ? `not served: ${r.notServed}` : undefined);
      out(
        `  ${r.tool.padEnd(width)}${(r.available ? "available" : r.unavailable ? "unavailable" : "missing").padEnd(13)}${profiles.padEnd(profileWidth)}${r.description}${why ? ` (${why})` : ""}`,
      );
    }
  }
  out("");
  out(
    `serve with these options serves ${described.served.length} tools${described.served.length ? `: ${described.served.map((t) => t.name).join(", ")}` : ""}`,
  );
  return 0;
}
