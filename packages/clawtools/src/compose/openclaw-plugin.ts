import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ClawtoolsPlugin, ToolContext, ToolRegistry } from "@clawtools/core";
import { getCoreToolDefinition } from "@clawtools/core/catalog";
import { registerSecrets, secretsInDocument } from "@clawtools/core/safety";

/** The OpenClaw plugin directory a spec names (a directory with openclaw.plugin.json), if any. */
export function openClawPluginDir(spec: string, base: string, isPath: boolean): string | undefined {
  const manifest = (dir: string) => existsSync(path.join(dir, "openclaw.plugin.json"));
  if (isPath) {
    const dir = path.resolve(base, spec);
    return manifest(dir) ? dir : undefined;
  }
  // a package's own directory: its exports may hide package.json, so the lookup paths are walked
  // from `base` first, then from the CLI's own install (as a clawtools plugin package is)
  const lookup = [
    ...(createRequire(path.join(base, "package.json")).resolve.paths(spec) ?? []),
    ...(createRequire(import.meta.url).resolve.paths(spec) ?? []),
  ];
  for (const root of lookup) {
    const dir = path.join(root, spec);
    if (existsSync(path.join(dir, "package.json"))) return manifest(dir) ? dir : undefined;
  }
  return undefined;
}

export interface OpenClawLoad {
  dir: string;
  /** `--config`'s entry `config`: the plugin's configuration. */
  config?: Record<string, unknown>;
  /** Sections the user lets it replace (entry `replaces`, `--plugin-replaces`). */
  replaces: string[];
}

/**
 * Loads an OpenClaw plugin and decides what its tool names may take: a name held by a section
 * (or a core id of a section not installed) is allowed only when the user lets the plugin
 * replace that section, as OpenClaw's memory slot does; then the section's tools are withdrawn
 * and its plugin is marked replaced. Returns the plugin to register, or throws naming the clash.
 */
export async function loadOpenClawForServe(
  load: OpenClawLoad,
  registry: ToolRegistry,
  context: ToolContext,
  replaced: Set<ClawtoolsPlugin>,
  warn: (line: string) => void,
): Promise<{ plugin: ClawtoolsPlugin; tools: string[]; unsupported: string[] }> {
  // its credentials (an apiKey) are secrets of the process, redacted from every output
  if (load.config) registerSecrets(secretsInDocument(load.config));
  const { loadOpenClawPlugin } = await import("@clawtools/openclaw-plugins");
  const loaded = await loadOpenClawPlugin({
    dir: load.dir,
    ...(load.config ? { config: load.config } : {}),
    context,
    log: (line) => warn(`[clawtools] plugin ${line}`),
  });
  // a core id belongs to its section; any other taken name is another plugin's
  const clashes = loaded.tools.filter(
    (name) => registry.has(name) || getCoreToolDefinition(name) !== undefined,
  );
  const holder = (name: string) => registry.getMeta(name)?.pluginId;
  const foreign = clashes.filter(
    (name) =>
      !getCoreToolDefinition(name) ||
      (holder(name) !== undefined && !holder(name)!.startsWith("@clawtools/")),
  );
  if (foreign.length > 0)
    throw new Error(
      `its tool${foreign.length > 1 ? "s" : ""} ${foreign.join(", ")} ${foreign.length > 1 ? "are" : "is"} already served (by ${[...new Set(foreign.map((n) => holder(n) ?? "another plugin"))].join(", ")}); remove one of them`,
    );
  const sections = [...new Set(clashes.map((name) => getCoreToolDefinition(name)!.sectionId as string))];
  if (sections.length > 1)
    throw new Error(
      `its tools collide with several sections (${sections.join(", ")}); it can replace one at most`,
    );
  if (sections.length === 0) {
    if (loaded.unsupported.length > 0) warnUnsupported(loaded.plugin.id, loaded.unsupported, warn);
    return { plugin: loaded.plugin, tools: loaded.tools, unsupported: loaded.unsupported };
  }
  const section = sections[0]!;
  if (!load.replaces.includes(section))
    throw new Error(
      `its tools ${clashes.join(", ")} collide with the ${section} section's; to let it replace that section (as OpenClaw's ${loaded.manifest.kind ?? section} slot does), give its plugins entry "replaces": "${section}" or pass --plugin-replaces ${section}`,
    );
  // the section steps aside whole: its plugin is kept for dispose but no longer served
  for (const p of registry.plugins()) if (p.section === section) replaced.add(p);
  for (const meta of registry.list().filter((m) => m.sectionId === section)) registry.unregister(meta.id);
  if (loaded.unsupported.length > 0) warnUnsupported(loaded.plugin.id, loaded.unsupported, warn);
  warn(`[clawtools] plugin ${loaded.plugin.id} replaces the ${section} section`);
  return {
    plugin: { ...loaded.plugin, section: section as ClawtoolsPlugin["section"] },
    tools: loaded.tools,
    unsupported: loaded.unsupported,
  };
}

function warnUnsupported(id: string, kinds: string[], warn: (line: string) => void): void {
  warn(`[clawtools] plugin ${id}: not supported by clawtools, left out: ${kinds.join(", ")}`);
}
