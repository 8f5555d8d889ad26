import { CORE_SECTIONS, getCoreToolDefinition, type ToolMeta, type ToolSection } from "./catalog.js";
import { ToolUnavailableError } from "./errors.js";
import type { ClawtoolsPlugin, PluginToolMeta, ToolFactory } from "./plugin.js";
import { normalizeToolName } from "./policy/normalize.js";
import type { AnyAgentTool, ToolContext } from "./tool.js";

/** Why a tool was left out (at registration or resolution). */
export interface ToolDiagnostic {
  toolId: string;
  pluginId?: string;
  reason: string;
  /** `<section or plugin>/<tool>: <reason>` */
  message: string;
  error?: unknown;
}

export type ResolveErrorHandler = (meta: ToolMeta, error: unknown) => void;

export interface ResolveOptions {
  /** Only these tool names (already normalised). */
  names?: string[];
  /** Only tools whose metadata lists this profile (`full` = all). */
  profile?: string;
  /** Every allowlist entry in force: unlocks optional tools named here, by plugin id, or `group:plugins`. */
  allowlist?: string[];
}

export interface ResolveResult {
  tools: AnyAgentTool[];
  diagnostics: ToolDiagnostic[];
}

interface Registration {
  factory: ToolFactory;
  names: string[];
  pluginId?: string;
  optional: boolean;
}

interface Entry {
  meta: ToolMeta;
  registration: Registration;
}

function diagnostic(meta: Pick<ToolMeta, "id" | "sectionId" | "pluginId">, reason: string, error?: unknown) {
  const where = meta.sectionId || meta.pluginId || "tool";
  return {
    toolId: meta.id,
    ...(meta.pluginId ? { pluginId: meta.pluginId } : {}),
    reason,
    message: `${where}/${meta.id}: ${reason}`,
    ...(error !== undefined ? { error } : {}),
  } satisfies ToolDiagnostic;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pluginMeta(
  name: string,
  plugin: ClawtoolsPlugin,
  optional: boolean,
  meta?: PluginToolMeta,
): ToolMeta {
  return {
    id: name,
    label: meta?.label ?? name,
    description: meta?.description ?? "",
    sectionId: meta?.sectionId ?? plugin.section ?? plugin.id,
    profiles: meta?.profiles ?? [],
    source: "plugin",
    pluginId: plugin.id,
    optional,
    ...(meta?.includeInOpenClawGroup ? { includeInOpenClawGroup: true } : {}),
    ...(meta?.readOnly !== undefined ? { readOnly: meta.readOnly } : {}),
    ...(meta?.destructive !== undefined ? { destructive: meta.destructive } : {}),
    ...(meta?.ownerOnly !== undefined ? { ownerOnly: meta.ownerOnly } : {}),
  };
}

/** Holds tools, factories and plugins; resolves them for a context. Nothing is skipped silently. */
export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly registeredPlugins = new Set<ClawtoolsPlugin>();
  /** Registration-time diagnostics (refused plugins, name collisions). */
  readonly diagnostics: ToolDiagnostic[] = [];

  /** Registers a ready tool; `meta` overrides what is derived from the tool. */
  register(tool: AnyAgentTool, meta: Partial<ToolMeta> = {}): void {
    const id = normalizeToolName(meta.id ?? tool.name);
    this.registerFactory(() => tool, {
      label: tool.label ?? id,
      description: tool.description ?? "",
      ...(tool.ownerOnly ? { ownerOnly: true } : {}),
      ...meta,
      id,
    });
  }

  /** Registers a lazy factory, called with the context at resolution. `meta.id` is required. */
  registerFactory(factory: ToolFactory, meta: Partial<ToolMeta> & { id: string }): void {
    const id = normalizeToolName(meta.id);
    if (!id) throw new Error("registerFactory: meta.id required");
    const core = getCoreToolDefinition(id);
    const full: ToolMeta = {
      label: id,
      description: "",
      sectionId: "custom",
      profiles: [],
      source: core ? "core" : "plugin",
      ...(core ? { ...core, profiles: [...core.profiles] } : {}),
      ...meta,
      id,
    };
    this.entries.set(id, {
      meta: full,
      registration: { factory, names: [id], optional: full.optional ?? false, pluginId: full.pluginId },
    });
  }

  /**
   * Registers every tool of a plugin. Only a section plugin may provide core tool ids; a
   * third-party plugin naming a core tool is refused whole. A name another plugin already
   * holds is skipped. Both are reported in `diagnostics` and the returned list.
   */
  registerPlugin(plugin: ClawtoolsPlugin): ToolDiagnostic[] {
    this.registeredPlugins.add(plugin);
    const found: ToolDiagnostic[] = [];
    const coreClash = plugin.tools
      .flatMap((reg) => reg.names.map(normalizeToolName))
      .filter((name) => {
        const core = getCoreToolDefinition(name);
        return core && core.sectionId !== plugin.section;
      });
    if (coreClash.length > 0) {
      for (const name of coreClash) {
        found.push(
          diagnostic(
            { id: name, sectionId: "", pluginId: plugin.id },
            `plugin ${plugin.id} refused: tool name "${name}" collides with a core tool`,
          ),
        );
      }
      this.diagnostics.push(...found);
      return found;
    }
    for (const reg of plugin.tools) {
      const names = reg.names.map(normalizeToolName);
      const registration: Registration = {
        factory: reg.factory,
        names,
        pluginId: plugin.id,
        optional: reg.optional,
      };
      for (const name of names) {
        const existing = this.entries.get(name);
        if (existing) {
          const holder = existing.meta.pluginId ?? "the registry";
          found.push(
            diagnostic(
              { id: name, sectionId: "", pluginId: plugin.id },
              `skipped: name already registered by ${holder}`,
            ),
          );
          continue;
        }
        const core = getCoreToolDefinition(name);
        const meta: ToolMeta = core
          ? {
              ...core,
              profiles: [...core.profiles],
              source: "core",
              pluginId: plugin.id,
              optional: reg.optional,
            }
          : pluginMeta(name, plugin, reg.optional, reg.meta?.[name]);
        this.entries.set(name, { meta, registration });
      }
    }
    this.diagnostics.push(...found);
    return found;
  }

  /** The plugins registered so far, in registration order. */
  plugins(): ClawtoolsPlugin[] {
    return [...this.registeredPlugins];
  }

  /**
   * Disposes every registered plugin (last registered first); idempotent per plugin. A failing
   * plugin does not stop the others; the errors are thrown together afterwards.
   */
  async dispose(): Promise<void> {
    const errors: unknown[] = [];
    for (const plugin of [...this.registeredPlugins].reverse()) {
      try {
        await plugin.dispose?.();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "several plugins failed to dispose");
  }

  /** Resolves tools for a context and says why each missing one is missing. */
  resolveWithDiagnostics(ctx: ToolContext = {}, options: ResolveOptions = {}): ResolveResult {
    const tools: AnyAgentTool[] = [];
    const diagnostics: ToolDiagnostic[] = [];
    const produced = new Map<Registration, Map<string, AnyAgentTool> | Error>();
    const unlock = new Set((options.allowlist ?? []).map(normalizeToolName));
    const names = options.names ? new Set(options.names) : undefined;

    for (const { meta, registration } of this.entries.values()) {
      if (names && !names.has(meta.id)) continue;
      // an empty or unknown profile lists nothing (only `full` means everything)
      if (
        options.profile !== undefined &&
        options.profile !== "full" &&
        !meta.profiles.includes(options.profile as never)
      )
        continue;
      if (
        meta.optional &&
        !unlock.has(meta.id) &&
        !(meta.pluginId && unlock.has(normalizeToolName(meta.pluginId))) &&
        !unlock.has("group:plugins")
      ) {
        diagnostics.push(diagnostic(meta, "optional tool not named in any allowlist"));
        continue;
      }
      let result = produced.get(registration);
      if (!result) {
        result = runFactory(registration, ctx);
        produced.set(registration, result);
      }
      if (result instanceof Error) {
        diagnostics.push(diagnostic(meta, errorText(result), result));
        continue;
      }
      const tool = result.get(meta.id);
      if (!tool) {
        const reason = result.size === 0 ? "factory returned no tool" : `factory did not return "${meta.id}"`;
        diagnostics.push(diagnostic(meta, reason, new ToolUnavailableError(reason)));
        continue;
      }
      tools.push(tool);
    }
    return { tools, diagnostics };
  }

  /** Resolves every tool; factories that throw or return null are reported to `onError`. */
  resolveAll(ctx?: ToolContext, onError?: ResolveErrorHandler, options?: ResolveOptions): AnyAgentTool[] {
    return this.report(this.resolveWithDiagnostics(ctx, options), onError);
  }

  /** Only tools whose metadata lists `profile` (`full` returns everything). */
  resolveByProfile(profile: string, ctx?: ToolContext, onError?: ResolveErrorHandler): AnyAgentTool[] {
    return this.report(this.resolveWithDiagnostics(ctx, { profile }), onError);
  }

  /** Resolves one tool by name. */
  resolve(name: string, ctx?: ToolContext, onError?: ResolveErrorHandler): AnyAgentTool | undefined {
    const id = normalizeToolName(name);
    return this.report(this.resolveWithDiagnostics(ctx, { names: [id], allowlist: [id] }), onError)[0];
  }

  private report(result: ResolveResult, onError?: ResolveErrorHandler): AnyAgentTool[] {
    if (onError) {
      for (const d of result.diagnostics) {
        const meta = this.entries.get(d.toolId)?.meta;
        if (meta) onError(meta, d.error ?? new ToolUnavailableError(d.reason));
      }
    }
    return result.tools;
  }

  list(): ToolMeta[] {
    return [...this.entries.values()].map((entry) => ({ ...entry.meta }));
  }

  getMeta(name: string): ToolMeta | undefined {
    const meta = this.entries.get(normalizeToolName(name))?.meta;
    return meta ? { ...meta } : undefined;
  }

  /** Metadata grouped by section: core sections in display order, then others; empty ones omitted. */
  listBySection(): Array<ToolSection & { tools: ToolMeta[] }> {
    const metas = this.list();
    const known = CORE_SECTIONS.map((section) => ({
      ...section,
      tools: metas.filter((meta) => meta.sectionId === section.id),
    }));
    const extraIds = [...new Set(metas.map((m) => m.sectionId))].filter(
      (id) => !CORE_SECTIONS.some((s) => s.id === id),
    );
    const extra = extraIds.map((id) => ({ id, label: id, tools: metas.filter((m) => m.sectionId === id) }));
    return [...known, ...extra].filter((section) => section.tools.length > 0);
  }

  has(name: string): boolean {
    return this.entries.has(normalizeToolName(name));
  }

  unregister(name: string): boolean {
    return this.entries.delete(normalizeToolName(name));
  }

  clear(): void {
    this.entries.clear();
    this.diagnostics.length = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}

function runFactory(registration: Registration, ctx: ToolContext): Map<string, AnyAgentTool> | Error {
  try {
    const out = registration.factory(ctx);
    const list = out == null ? [] : Array.isArray(out) ? out : [out];
    return new Map(list.map((tool) => [normalizeToolName(tool.name), tool]));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
