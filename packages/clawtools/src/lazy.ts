import {
  type AnyAgentTool,
  type ClawtoolsPlugin,
  type PluginToolRegistration,
  type ToolContext,
  ToolUnavailableError,
} from "@clawtools/core";
import type { PluginPrompts } from "@clawtools/core/prompts";
import type { PluginResources } from "@clawtools/core/resources";
import type { RegistrationManifest, SectionManifest } from "./manifest.js";

/**
 * A fresh copy of manifest data, which is JSON by construction (buildSectionManifest): a JSON
 * round trip copies it several times faster than structuredClone on a cold start.
 */
function copyJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A section plugin that lists its tools from a manifest and imports its code on first use. */
export interface LazySectionPlugin extends ClawtoolsPlugin {
  /** Imports the section (once); from then on every factory is the section's own. */
  load(): Promise<ClawtoolsPlugin>;
  /** The section's own plugin once loaded. */
  readonly loaded: ClawtoolsPlugin | undefined;
  /**
   * Loads the section and builds its real tools in every context its listing was built in, as
   * creating the toolset would have: a section whose tools start state (cron's scheduler) starts
   * it without waiting for a call.
   */
  start(): Promise<void>;
}

export function isLazySectionPlugin(plugin: ClawtoolsPlugin): plugin is LazySectionPlugin {
  return typeof (plugin as Partial<LazySectionPlugin>).load === "function";
}

/** The loaded plugin must have the registrations the manifest promised, in the same order. */
function checkShape(manifest: SectionManifest, real: ClawtoolsPlugin): void {
  const want = manifest.registrations.map((r) => r.names.join(",")).join(" | ");
  const got = real.tools.map((r) => r.names.join(",")).join(" | ");
  if (real.section !== manifest.section || want !== got)
    throw new Error(
      `${manifest.packageName}: its tools (${got}) do not match the clawtools manifest (${want}); reinstall matching versions`,
    );
}

export function lazySectionPlugin(
  manifest: SectionManifest,
  importPlugin: () => Promise<ClawtoolsPlugin>,
): LazySectionPlugin {
  let real: ClawtoolsPlugin | undefined;
  let loading: Promise<ClawtoolsPlugin> | undefined;
  // settles when something else loads the section (a watch waits for it without loading)
  let markLoaded: (plugin: ClawtoolsPlugin) => void = () => {};
  const whenLoaded = new Promise<ClawtoolsPlugin>((resolve) => {
    markLoaded = resolve;
  });
  const load = (): Promise<ClawtoolsPlugin> => {
    loading ??= importPlugin().then((plugin) => {
      checkShape(manifest, plugin);
      real = plugin;
      markLoaded(plugin);
      if (plugin.configSchema) self.configSchema = plugin.configSchema;
      return plugin;
    });
    return loading;
  };
  // the real tools of one registration in one context: its factory runs once, on the first call
  const built = new WeakMap<ToolContext, Map<number, Promise<Map<string, AnyAgentTool>>>>();
  const realTool = async (index: number, name: string, ctx: ToolContext): Promise<AnyAgentTool> => {
    let perCtx = built.get(ctx);
    if (!perCtx) {
      perCtx = new Map();
      built.set(ctx, perCtx);
    }
    let tools = perCtx.get(index);
    if (!tools) {
      tools = load().then((plugin) => {
        const out = (plugin.tools[index] as PluginToolRegistration).factory(ctx);
        const list = out == null ? [] : Array.isArray(out) ? out : [out];
        return new Map(list.map((tool) => [tool.name, tool]));
      });
      perCtx.set(index, tools);
    }
    const tool = (await tools).get(name);
    if (!tool) throw new Error(`${name}: ${manifest.packageName} did not build this tool in this context`);
    return tool;
  };
  // the contexts listings were built in, per registration, for start()
  const listed = new Map<number, Set<ToolContext>>();
  const proxy = (index: number, data: Record<string, unknown>, ctx: ToolContext): AnyAgentTool => {
    const name = data.name as string;
    // once built, later calls go straight to the real tool (no lookups or awaits per call)
    let resolved: AnyAgentTool | undefined;
    return {
      ...(copyJson(data) as Omit<AnyAgentTool, "execute">),
      // the section's code and the real tool, loaded before a server enters the call's context
      prepare: () =>
        resolved
          ? undefined
          : realTool(index, name, ctx).then((tool) => {
              resolved ??= tool;
            }),
      execute: async (toolCallId, params, signal, onUpdate) => {
        resolved ??= await realTool(index, name, ctx);
        return resolved.execute(toolCallId, params, signal, onUpdate);
      },
    };
  };
  const registration = (r: RegistrationManifest, index: number): PluginToolRegistration => ({
    pluginId: manifest.pluginId,
    names: [...r.names],
    optional: r.optional,
    source: r.source,
    ...(r.meta ? { meta: copyJson(r.meta) } : {}),
    factory: (ctx) => {
      if (real) return (real.tools[index] as PluginToolRegistration).factory(ctx);
      if (r.unavailable !== undefined) throw new ToolUnavailableError(r.unavailable);
      let contexts = listed.get(index);
      if (!contexts) {
        contexts = new Set();
        listed.set(index, contexts);
      }
      contexts.add(ctx);
      return (r.tools ?? []).map((data) => proxy(index, data, ctx));
    },
  });
  const self: LazySectionPlugin = {
    id: manifest.pluginId,
    version: manifest.version,
    ...(manifest.description ? { description: manifest.description } : {}),
    section: manifest.section,
    tools: manifest.registrations.map(registration),
    ...(manifest.configSchema
      ? { configSchema: copyJson(manifest.configSchema) as unknown as ClawtoolsPlugin["configSchema"] }
      : {}),
    load,
    get loaded() {
      return real;
    },
    // what the section declares for apps exists once its code is loaded
    get capabilities() {
      return real?.capabilities;
    },
    start: async () => {
      await load();
      const builds: Array<Promise<unknown>> = [];
      for (const [index, contexts] of listed) {
        const names = manifest.registrations[index]?.tools?.map((t) => t.name as string) ?? [];
        for (const ctx of contexts) for (const name of names) builds.push(realTool(index, name, ctx));
      }
      await Promise.all(builds);
    },
    ...(manifest.resources ? { resources: lazyResources(load, whenLoaded, () => real) } : {}),
    ...(manifest.prompts ? { prompts: lazyPrompts(load, whenLoaded, () => real) } : {}),
    // nothing to release unless the section was loaded
    dispose: async () => {
      const plugin = loading ? await loading.catch(() => undefined) : undefined;
      await plugin?.dispose?.();
    },
  };
  return self;
}

/**
 * A section's resources before its code is loaded: listing, templates and reads load it; a watch
 * waits for the load (a section not loaded yet has nothing that could change).
 */
function lazyResources(
  load: () => Promise<ClawtoolsPlugin>,
  whenLoaded: Promise<ClawtoolsPlugin>,
  loaded: () => ClawtoolsPlugin | undefined,
): PluginResources {
  const resourcesOf = async () => (await load()).resources;
  return {
    list: async (ctx) => (await resourcesOf())?.list(ctx) ?? [],
    templates: async (ctx) => (await resourcesOf())?.templates?.(ctx) ?? [],
    read: async (uri, ctx) => (await resourcesOf())?.read(uri, ctx),
    complete: async (uriTemplate, request, ctx) =>
      (await resourcesOf())?.complete?.(uriTemplate, request, ctx),
    watch: (ctx, listener) => {
      const now = loaded()?.resources;
      if (now?.watch) return now.watch(ctx, listener);
      let stop: (() => void) | undefined;
      let stopped = false;
      void whenLoaded.then((plugin) => {
        if (!stopped) stop = plugin.resources?.watch?.(ctx, listener);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}

/** A section's prompts before its code is loaded: listing, getting and completing load it. */
function lazyPrompts(
  load: () => Promise<ClawtoolsPlugin>,
  whenLoaded: Promise<ClawtoolsPlugin>,
  loaded: () => ClawtoolsPlugin | undefined,
): PluginPrompts {
  const promptsOf = async () => (await load()).prompts;
  return {
    list: async (ctx) => (await promptsOf())?.list(ctx) ?? [],
    get: async (name, args, ctx) => (await promptsOf())?.get(name, args, ctx),
    complete: async (name, request, ctx) => (await promptsOf())?.complete?.(name, request, ctx),
    watch: (ctx, listener) => {
      const now = loaded()?.prompts;
      if (now?.watch) return now.watch(ctx, listener);
      let stop: (() => void) | undefined;
      let stopped = false;
      void whenLoaded.then((plugin) => {
        if (!stopped) stop = plugin.prompts?.watch?.(ctx, listener);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
