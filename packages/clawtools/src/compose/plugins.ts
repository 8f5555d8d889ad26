import path from "node:path";
import type { ClawtoolsPlugin, PluginToolRegistration, ToolContext, ToolRegistry } from "@clawtools/core";
import { TOOL_PROFILE_IDS } from "@clawtools/core/catalog";
import { loadOpenClawForServe, openClawPluginDir } from "./openclaw-plugin.js";
import { BundleConfigError } from "./errors.js";
import { resolvePluginSpec } from "./plugin-resolve.js";

/** A plugin the user named: `--plugin <spec>` or the config file's `plugins`. */
export interface NamedPlugin {
  /** A package name, or a path (relative to `base`). */
  spec: string;
  /** Where a relative path is taken from, and where a package is looked up first. */
  base: string;
  /** `--plugin` or `--config <file>`: named in errors. */
  from: string;
  /** Sections this OpenClaw plugin may replace (its config entry's `replaces`). */
  replaces?: string[];
  /** An OpenClaw plugin's configuration (the config entry's `config`). */
  config?: Record<string, unknown>;
}

// a scoped package name (@scope/name) holds a slash but is a package, not a path
const isPath = (spec: string) =>
  spec.startsWith(".") || path.isAbsolute(spec) || (spec.includes(path.sep) && !spec.startsWith("@"));

const fail = (named: NamedPlugin, why: string) =>
  new BundleConfigError(`plugin "${named.spec}" (${named.from}): ${why}`);

/** Imports the module and takes its clawtools plugin: the default export, else `plugin`. */
async function importPlugin(named: NamedPlugin): Promise<ClawtoolsPlugin> {
  let url: string;
  try {
    url = resolvePluginSpec(named.spec, named.base, isPath(named.spec));
  } catch (error) {
    throw fail(named, `cannot load it: ${(error as Error).message}`);
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw fail(named, `cannot load it: ${(error as Error).message.split("\n")[0]}`);
  }
  const candidate = [mod.default, mod.plugin].find(
    (value) => typeof value === "object" && value !== null && Array.isArray((value as ClawtoolsPlugin).tools),
  );
  if (!candidate)
    throw fail(
      named,
      'exports no clawtools plugin (expected a default or "plugin" export made with definePlugin: {id, version, tools})',
    );
  return candidate as ClawtoolsPlugin;
}

/**
 * Naming a plugin is asking for its tools: every registration is served under every profile
 * (the profile's allowlist would otherwise drop a third-party tool) and none is optional. `--deny`
 * and `--allow` still apply.
 */
export function servedEverywhere(plugin: ClawtoolsPlugin): ClawtoolsPlugin {
  const tools: PluginToolRegistration[] = plugin.tools.map((reg) => ({
    ...reg,
    optional: false,
    meta: Object.fromEntries(
      reg.names.map((name) => [name, { ...reg.meta?.[name], profiles: [...TOOL_PROFILE_IDS] }]),
    ),
  }));
  return Object.assign(Object.create(Object.getPrototypeOf(plugin)), plugin, { tools });
}

/** A named plugin as loaded, and as registered (served under every profile). */
export interface LoadedPlugin {
  plugin: ClawtoolsPlugin;
  registered: ClawtoolsPlugin;
  spec: string;
  tools: string[];
}

/**
 * Loads the named plugins, checks each as `@clawtools/testing`'s contract kit does, and registers
 * them. An OpenClaw plugin (a package or directory with openclaw.plugin.json) loads through
 * @clawtools/openclaw-plugins. A plugin that cannot be loaded, breaks the contract or collides
 * with a tool already registered fails the start with an error naming it and what is wrong; an
 * OpenClaw plugin may replace a section it collides with when the user says so (`replaced`
 * collects the section plugins that step aside).
 */
export async function registerNamedPlugins(
  named: readonly NamedPlugin[],
  registry: ToolRegistry,
  context: ToolContext,
  options: {
    replaced?: Set<ClawtoolsPlugin>;
    warn?: (line: string) => void;
    /** Sections any named OpenClaw plugin may replace (`--plugin-replaces`). */
    replaces?: string[];
  } = {},
): Promise<LoadedPlugin[]> {
  if (named.length === 0) return [];
  let kit: typeof import("@clawtools/testing");
  try {
    kit = await import("@clawtools/testing");
  } catch {
    throw fail(
      named[0]!,
      "cannot be checked: the contract kit @clawtools/testing is not installed (install it beside clawtools)",
    );
  }
  const replaced = options.replaced ?? new Set<ClawtoolsPlugin>();
  const warn = options.warn ?? (() => {});
  const loaded: LoadedPlugin[] = [];
  for (const entry of named) {
    const openclaw = openClawPluginDir(entry.spec, entry.base, isPath(entry.spec));
    let plugin: ClawtoolsPlugin;
    if (openclaw) {
      try {
        const load = {
          dir: openclaw,
          replaces: [...(options.replaces ?? []), ...(entry.replaces ?? [])],
          ...(entry.config ? { config: entry.config } : {}),
        };
        ({ plugin } = await loadOpenClawForServe(load, registry, context, replaced, warn));
      } catch (error) {
        throw fail(entry, (error as Error).message);
      }
    } else {
      if (entry.config || entry.replaces?.length)
        throw fail(
          entry,
          '"config" and "replaces" apply to OpenClaw plugins (a package with openclaw.plugin.json)',
        );
      plugin = await importPlugin(entry);
    }
    // clawtools' authoring rules (no anyOf unions…) are for clawtools plugins; an OpenClaw
    // plugin is served as OpenClaw serves it, its tools checked as they are built
    const report = openclaw ? undefined : await kit.checkPluginContract(plugin, context);
    if (report && !report.ok) throw fail(entry, `breaks the plugin contract: ${report.problems.join("; ")}`);
    const taken = plugin.tools.flatMap((r) => r.names).filter((name) => registry.has(name));
    if (taken.length > 0)
      throw fail(
        entry,
        `its tool${taken.length > 1 ? "s" : ""} ${taken.join(", ")} ${taken.length > 1 ? "are" : "is"} already served (by ${taken.map((n) => registry.getMeta(n)?.pluginId ?? registry.getMeta(n)?.sectionId ?? "another plugin").join(", ")}); remove one of them`,
      );
    const registered = servedEverywhere(plugin);
    const problems = registry.registerPlugin(registered);
    if (problems.length > 0) throw fail(entry, problems.map((d) => d.message).join("; "));
    loaded.push({ plugin, registered, spec: entry.spec, tools: plugin.tools.flatMap((r) => r.names) });
  }
  return loaded;
}
