import { getCoreSections, getCoreToolCatalog, type ToolMeta } from "@clawtools/core";
import type { Clawtools } from "clawtools";
import type { CommonOptions } from "../options.js";
import { buildContext, loadClawtools } from "../toolset.js";

interface Row {
  tool: string;
  section: string;
  available: boolean;
  /** Installed, but its factory leaves it out here (a missing API key, say): why. */
  unavailable?: string;
  profiles: string[];
  description: string;
  plugin?: string;
}

/** Every catalog tool (available or not) plus every installed plugin tool, grouped by section. */
export async function listCommand(options: CommonOptions, out: (line: string) => void): Promise<number> {
  const clawtools = await loadClawtools();
  try {
    return list(clawtools, options, out);
  } finally {
    await clawtools.tools.dispose();
  }
}

function list(clawtools: Clawtools, options: CommonOptions, out: (line: string) => void): number {
  const registered = new Map(clawtools.tools.list().map((meta) => [meta.id, meta]));
  // resolve in this workspace and environment, so tools that need a key or a setting say so
  const { diagnostics } = clawtools.tools.resolveWithDiagnostics(buildContext(options, clawtools), {
    allowlist: ["group:plugins"],
  });
  const leftOut = new Map(diagnostics.map((d) => [d.toolId, d.reason]));
  const rows: Row[] = [];
  const row = (meta: ToolMeta, installed: boolean): Row => ({
    tool: meta.id,
    section: meta.sectionId,
    available: installed && !leftOut.has(meta.id),
    ...(installed && leftOut.has(meta.id) ? { unavailable: leftOut.get(meta.id)! } : {}),
    profiles: meta.profiles,
    description: meta.description,
    ...(meta.pluginId ? { plugin: meta.pluginId } : {}),
  });
  for (const meta of getCoreToolCatalog())
    rows.push(row(registered.get(meta.id) ?? meta, registered.has(meta.id)));
  for (const meta of registered.values())
    if (!rows.some((r) => r.tool === meta.id)) rows.push(row(meta, true));
  if (options.json) {
    out(
      JSON.stringify(
        {
          sections: clawtools.sections.map(({ plugin, ...s }) => ({ ...s, installed: Boolean(plugin) })),
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
    const found = clawtools.sections.find((s) => s.section === id);
    const status = found
      ? found.plugin
        ? found.packageName
        : `${found.packageName}: ${found.missing}`
      : "plugin";
    out(`${label} (${id}) — ${status}`);
    for (const r of inSection) {
      const profiles = r.profiles.length ? r.profiles.join(",") : "-";
      out(
        `  ${r.tool.padEnd(width)}${(r.available ? "available" : r.unavailable ? "unavailable" : "missing").padEnd(13)}${profiles.padEnd(profileWidth)}${r.description}${r.unavailable ? ` (${r.unavailable})` : ""}`,
      );
    }
  }
  return 0;
}
