import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Static, TSchema } from "@sinclair/typebox";
import type { SectionId } from "./catalog.js";
import { parseSectionConfig, readSectionConfig } from "./config.js";
import type { ProvidedCapability } from "./plugin-capability.js";
import { type ClawtoolsPlugin, definePlugin, type PluginToolInput } from "./plugin.js";
import type { ToolContext } from "./tool.js";
import type { PluginResources } from "./resources/types.js";

const found = new Map<string, { name: string; version: string }>();

/**
 * The name and version of the package a module belongs to: the nearest package.json above it
 * that has both (the same from `src/` and from `dist/`).
 */
export function packageInfo(moduleUrl: string): { name: string; version: string } {
  const start = path.dirname(moduleUrl.startsWith("file:") ? fileURLToPath(moduleUrl) : moduleUrl);
  const cached = found.get(start);
  if (cached) return cached;
  for (let dir = start; ; dir = path.dirname(dir)) {
    let manifest: { name?: unknown; version?: unknown } | undefined;
    try {
      manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    } catch {
      // none here (or unreadable): look further up
    }
    if (typeof manifest?.name === "string" && typeof manifest.version === "string") {
      const info = { name: manifest.name, version: manifest.version };
      found.set(start, info);
      return info;
    }
    if (path.dirname(dir) === dir)
      throw new Error(`packageInfo: no package.json with a name and a version above ${start}`);
  }
}

/** A section's configuration as its tools see it. */
export interface SectionConfig<C> {
  /** The options given in code that are configuration (checked when the plugin was made). */
  readonly inCode: Partial<C>;
  /** A context's configuration: `ctx.config[section]` overlaid key by key by `inCode`, validated. */
  read(ctx: Pick<ToolContext, "config">): C;
}

export interface DefineSectionPluginInput<S extends TSchema, M extends object> {
  /** `import.meta.url` of the plugin's module: its id and version come from its package.json. */
  module: string;
  section: SectionId;
  description: string;
  configSchema: S;
  /**
   * The part of the options given in code that is configuration. Checked now, so a misspelt key
   * fails when the plugin is made (a ConfigError naming it), not at the first call. Left out:
   * nothing is checked now (a section that validates its options itself).
   */
  config?: Partial<Static<S>> | undefined;
  tools: (config: SectionConfig<Static<S>>) => PluginToolInput[];
  dispose?: () => void | Promise<void>;
  /** What an app may ask of the plugin beside its tools (`capabilityOf`). */
  capabilities?: ProvidedCapability[];
  /** Resources a host can read by URI, served with the section's tools. */
  resources?: PluginResources;
  /** Members for code that holds this plugin directly (events, a registry), typed on the result. */
  members?: M;
}

/**
 * A section plugin's opening in one call: id and version from package.json, the options in code
 * validated against the section's schema, the tools given a reader of each context's
 * configuration, declared capabilities and members.
 */
export function defineSectionPlugin<S extends TSchema, M extends object = Record<never, never>>(
  input: DefineSectionPluginInput<S, M>,
): ClawtoolsPlugin & M {
  const { name, version } = packageInfo(input.module);
  const inCode = (input.config ?? {}) as Partial<Static<S>>;
  if (input.config !== undefined) parseSectionConfig(input.section, input.configSchema, inCode);
  const config: SectionConfig<Static<S>> = {
    inCode,
    read: (ctx) => readSectionConfig(ctx, input.section, input.configSchema, inCode),
  };
  const plugin = definePlugin({
    id: name,
    version,
    description: input.description,
    section: input.section,
    configSchema: input.configSchema,
    tools: input.tools(config),
    ...(input.dispose ? { dispose: input.dispose } : {}),
    ...(input.capabilities ? { capabilities: input.capabilities } : {}),
    ...(input.resources ? { resources: input.resources } : {}),
  });
  const members = input.members ?? ({} as M);
  for (const key of Object.keys(members))
    if (Object.hasOwn(plugin, key))
      throw new Error(`defineSectionPlugin(${name}): member "${key}" would replace the plugin's own`);
  return Object.assign(plugin, members);
}
