import type { TSchema } from "@sinclair/typebox";
import type { SectionId, ToolMeta } from "./catalog.js";
import type { ProvidedCapability } from "./plugin-capability.js";
import type { PluginPrompts } from "./prompts/types.js";
import type { PluginResources } from "./resources/types.js";
import type { AnyAgentTool, ToolContext } from "./tool.js";

/** Builds a tool (or several) for a context; null when it does not apply. */
export type ToolFactory = (ctx: ToolContext) => AnyAgentTool | AnyAgentTool[] | null | undefined;

/** Metadata a third-party plugin supplies for its own tools (core ids take the catalog's). */
export type PluginToolMeta = Partial<Omit<ToolMeta, "id" | "source" | "pluginId" | "optional">>;

/** One registration: a factory, the tool names it provides, and whether it is optional (OpenClaw's plugin tool registration). */
export interface PluginToolRegistration {
  pluginId: string;
  factory: ToolFactory;
  /** The tool names the factory produces. */
  names: string[];
  /** Optional tools materialise only when an allowlist names them, their plugin, or group:plugins. */
  optional: boolean;
  /** Where the registration came from (module path or package name). */
  source: string;
  /** Metadata for non-catalog names, keyed by tool name. */
  meta?: Record<string, PluginToolMeta>;
}

export interface ClawtoolsPlugin {
  id: string;
  version: string;
  description?: string;
  /**
   * A section plugin implements the core catalog tools of that section; only a section
   * plugin may provide core tool ids. Third-party plugins leave this unset.
   */
  section?: SectionId;
  tools: PluginToolRegistration[];
  /**
   * Releases what the plugin owns (processes, databases, browsers, timers, connections).
   * Async and idempotent: with `definePlugin`, calls made while it runs share that run, and a
   * later call (after the plugin was used again) releases what was taken since.
   */
  dispose?: () => Promise<void>;
  /**
   * The TypeBox schema of this plugin's configuration (`ctx.config[section ?? id]`), so an app
   * or `clawtools serve --config` can validate a whole config file up front.
   */
  configSchema?: TSchema;
  /**
   * What an app may ask of the plugin beside its tools, by capability key (read with
   * `capabilityOf(plugin, KEY)`, never by guessing at members).
   */
  capabilities?: Readonly<Record<string, unknown>>;
  /**
   * Resources a host can read by URI (MCP resources), served by a toolset only while the policy
   * keeps one of this plugin's tools (or the plugin has none). See `defineResources`.
   */
  resources?: PluginResources;
  /**
   * Prompts a host offers its user (MCP prompts), served like `resources`: only while the policy
   * keeps one of this plugin's tools (or the plugin has none). See `definePrompts`.
   */
  prompts?: PluginPrompts;
}

export interface PluginToolInput {
  /** Tool names produced by the factory (or the name of a direct tool). */
  names?: string[];
  name?: string;
  factory: ToolFactory | AnyAgentTool;
  optional?: boolean;
  source?: string;
  /** Metadata for a single-name registration, or per name. */
  meta?: PluginToolMeta | Record<string, PluginToolMeta>;
}

export interface DefinePluginInput {
  id: string;
  version: string;
  description?: string;
  section?: SectionId;
  tools: PluginToolInput[];
  /** Releases what the plugin owns; concurrent `dispose()` calls share one run. */
  dispose?: () => void | Promise<void>;
  configSchema?: TSchema;
  /** Declared with `provide(KEY, value)`; a key given twice is an error. */
  capabilities?: ProvidedCapability[];
  resources?: PluginResources;
  prompts?: PluginPrompts;
}

function isTool(value: unknown): value is AnyAgentTool {
  return typeof value === "object" && value !== null && typeof (value as AnyAgentTool).execute === "function";
}

function isPerNameMeta(
  meta: PluginToolInput["meta"],
  names: string[],
): meta is Record<string, PluginToolMeta> {
  if (!meta) return false;
  const keys = Object.keys(meta);
  return keys.length > 0 && keys.every((key) => names.includes(key));
}

/** Builds a `ClawtoolsPlugin`, filling `pluginId` and `source` on every registration. */
export function definePlugin(input: DefinePluginInput): ClawtoolsPlugin {
  if (!input.id?.trim()) throw new Error("definePlugin: id required");
  const tools = input.tools.map((entry, index): PluginToolRegistration => {
    const direct = isTool(entry.factory) ? entry.factory : undefined;
    const names = entry.names ?? (entry.name ? [entry.name] : direct ? [direct.name] : []);
    if (names.length === 0)
      throw new Error(`definePlugin(${input.id}): tools[${index}] needs a name or names`);
    const factory: ToolFactory = direct ? () => direct : (entry.factory as ToolFactory);
    let meta: Record<string, PluginToolMeta> | undefined;
    if (isPerNameMeta(entry.meta, names)) meta = entry.meta;
    else if (entry.meta) meta = Object.fromEntries(names.map((name) => [name, entry.meta as PluginToolMeta]));
    return {
      pluginId: input.id,
      factory,
      names,
      optional: entry.optional ?? false,
      source: entry.source ?? input.id,
      ...(meta ? { meta } : {}),
    };
  });
  return {
    id: input.id,
    ...(input.capabilities ? { capabilities: capabilityTable(input.id, input.capabilities) } : {}),
    version: input.version,
    ...(input.description ? { description: input.description } : {}),
    ...(input.section ? { section: input.section } : {}),
    tools,
    ...(input.dispose ? { dispose: serialised(input.dispose) } : {}),
    ...(input.configSchema ? { configSchema: input.configSchema } : {}),
    ...(input.resources ? { resources: input.resources } : {}),
    ...(input.prompts ? { prompts: input.prompts } : {}),
  };
}

function capabilityTable(id: string, entries: ProvidedCapability[]): Readonly<Record<string, unknown>> {
  const table: Record<string, unknown> = {};
  for (const { key, value } of entries) {
    if (Object.hasOwn(table, key)) throw new Error(`definePlugin(${id}): capability ${key} given twice`);
    table[key] = value;
  }
  return Object.freeze(table);
}

/**
 * Calls made while a dispose runs share it; a call after it finished runs it again, so a plugin
 * used again after a dispose (a shared default instance) still releases what it took since.
 */
function serialised(fn: () => void | Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= Promise.resolve()
      .then(fn)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
}
