import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ClawtoolsPlugin, definePlugin, type ToolContext } from "@clawtools/core";
import { schemaIssues } from "@clawtools/core/wrap";
import { recordingApi } from "./api.js";
import { type OpenClawManifest, readOpenClawManifest } from "./manifest.js";

export interface LoadOpenClawPluginOptions {
  /** The plugin's directory (holding openclaw.plugin.json). */
  dir: string;
  /** The plugin's configuration (`api.pluginConfig`); default `context.config[<plugin id>]`. */
  config?: unknown;
  /** The context the plugin is served in (tool factories get it mapped to OpenClaw's). */
  context?: ToolContext;
  /** Where the plugin's logger and load notes go (default: nowhere). */
  log?: (line: string) => void;
  /**
   * A clawtools section the plugin replaces (OpenClaw's slot: mem0 is the `memory` plugin):
   * its tools may then carry that section's core ids. Without it, a core id fails the load.
   */
  replacesSection?: string;
}

export interface LoadedOpenClawPlugin {
  /** The tools as a clawtools plugin (id = the manifest's id). */
  plugin: ClawtoolsPlugin;
  manifest: OpenClawManifest;
  /** The tool names it registered. */
  tools: string[];
  /** Registration kinds not supported by clawtools (hooks, services, CLI, gateway methods…). */
  unsupported: string[];
}

// the three SDK subpaths tool plugins import, all served by the stand-in
const SDK_SPECIFIERS = ["plugin-entry", "tool-plugin", "core"].map((s) => `openclaw/plugin-sdk/${s}`);

function shimFile(): string {
  // built: dist/sdk/plugin-entry.js; from source (tests): src/sdk/plugin-entry.ts
  for (const ext of [".js", ".ts"]) {
    const file = fileURLToPath(new URL(`./sdk/plugin-entry${ext}`, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new Error("@clawtools/openclaw-plugins is incomplete: its sdk/plugin-entry module is missing");
}

/** Imports an entry through jiti (TypeScript entries, the SDK's imports mapped to the stand-in). */
async function importEntry(file: string): Promise<unknown> {
  const { createJiti } = await import("jiti");
  const shim = shimFile();
  const jiti = createJiti(import.meta.url, {
    alias: Object.fromEntries([...SDK_SPECIFIERS, "openclaw/plugin-sdk"].map((s) => [s, shim])),
    // no cache on disk: nothing is written into the plugin's node_modules or elsewhere
    fsCache: false,
    moduleCache: false,
    interopDefault: false,
    tryNative: true,
  });
  return jiti.import(file);
}

/** The entry's register function: a definePluginEntry object, a plain `{register}`, or a function. */
function registerOf(mod: unknown, file: string): (api: unknown) => unknown {
  const candidates = [mod, (mod as { default?: unknown })?.default, (mod as { plugin?: unknown })?.plugin];
  for (const c of candidates) {
    if (typeof c === "function") return c as (api: unknown) => unknown;
    if (typeof (c as { register?: unknown })?.register === "function") {
      const entry = c as { register: (api: unknown) => unknown };
      return (api) => entry.register(api);
    }
  }
  throw new Error(
    `${file} exports no OpenClaw plugin entry (definePluginEntry({id, register}) or register(api))`,
  );
}

/**
 * Loads an OpenClaw tool plugin as it is (manifest, entries, TypeScript through jiti), runs
 * its `register` against a recording api and returns its tools as a clawtools plugin. The
 * configuration is checked against the manifest's configSchema first.
 */
export async function loadOpenClawPlugin(options: LoadOpenClawPluginOptions): Promise<LoadedOpenClawPlugin> {
  const manifest = readOpenClawManifest(options.dir);
  const context = options.context ?? {};
  const pluginConfig = options.config ?? context.config?.[manifest.id];
  if (manifest.configSchema) {
    const issues = schemaIssues(manifest.configSchema, pluginConfig ?? {});
    if (issues.length > 0)
      throw new Error(
        `plugin ${manifest.id}: its configuration does not match its configSchema:\n${issues.join("\n")}`,
      );
  }
  const { api, recording } = recordingApi(manifest, {
    pluginConfig: pluginConfig ?? {},
    context,
    log: options.log ?? (() => {}),
  });
  for (const file of manifest.entries) {
    let mod: unknown;
    try {
      mod = await importEntry(file);
    } catch (error) {
      throw new Error(
        `plugin ${manifest.id}: cannot load ${file}: ${(error as Error).message.split("\n")[0]}`,
      );
    }
    await registerOf(mod, file)(api);
  }
  const names = recording.tools.flatMap((t) => t.names);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`plugin ${manifest.id} registered the tool ${dup} twice`);
  // OpenClaw requires each tool in contracts.tools; clawtools serves what was registered and says so
  const undeclared = names.filter(
    (n) => manifest.contractTools.length > 0 && !manifest.contractTools.includes(n),
  );
  if (undeclared.length > 0)
    options.log?.(`${manifest.id}: tools not listed in contracts.tools: ${undeclared.join(", ")}`);
  const plugin = definePlugin({
    id: manifest.id,
    version: manifest.version,
    ...(manifest.description ? { description: manifest.description } : {}),
    ...(options.replacesSection
      ? { section: options.replacesSection as ClawtoolsPlugin["section"] & string }
      : {}),
    tools: recording.tools.map((t) => ({
      names: t.names,
      optional: t.optional,
      source: manifest.dir,
      factory: (ctx: ToolContext) => t.factory(ctx),
    })),
  });
  return { plugin, manifest, tools: names, unsupported: recording.unsupported };
}
