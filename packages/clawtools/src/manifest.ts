import type { ClawtoolsPlugin, ToolContext } from "@clawtools/core";
import type { SectionId } from "@clawtools/core/catalog";
import { ToolUnavailableError } from "@clawtools/core";

/**
 * What a section's tools look like without loading the section: each registration's names and
 * flags, and the tools its factory builds in a context without configuration (every property but
 * `execute`), or the reason it declines. Generated from the live section (scripts/write-manifests),
 * checked against it by a test, so it cannot drift from the code it stands for.
 */
export interface SectionManifest {
  section: SectionId;
  packageName: string;
  /** The section package version it was generated from; another version is imported instead. */
  version: string;
  pluginId: string;
  description?: string;
  configSchema?: Record<string, unknown>;
  /** The section serves resources (`ClawtoolsPlugin.resources`): its lazy plugin loads it to list them. */
  resources?: true;
  /** The section serves prompts (`ClawtoolsPlugin.prompts`): its lazy plugin loads it to list them. */
  prompts?: true;
  registrations: RegistrationManifest[];
}

export interface RegistrationManifest {
  names: string[];
  optional: boolean;
  source: string;
  meta?: Record<string, Record<string, unknown>>;
  /** The tools built in a context without configuration: JSON data, `execute` left out. */
  tools?: Array<Record<string, unknown>>;
  /** The factory declined (ToolUnavailableError): the reason it gave. */
  unavailable?: string;
}

/** A copy that keeps only JSON data (TypeBox's symbol keys and functions fall away). */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The manifest of a live section plugin, its factories run in `ctx`. Throws when a tool carries a
 * function beyond `execute` (a proxy could not stand for it) or a factory fails other than by
 * declining.
 */
export function buildSectionManifest(
  plugin: ClawtoolsPlugin,
  packageName: string,
  version: string,
  ctx: ToolContext,
): SectionManifest {
  if (!plugin.section) throw new Error(`${packageName}: not a section plugin`);
  const registrations = plugin.tools.map((registration): RegistrationManifest => {
    const base: RegistrationManifest = {
      names: [...registration.names],
      optional: registration.optional,
      source: registration.source,
      ...(registration.meta ? { meta: json(registration.meta) as RegistrationManifest["meta"] } : {}),
    };
    let out: ReturnType<typeof registration.factory>;
    try {
      out = registration.factory(ctx);
    } catch (error) {
      if (error instanceof ToolUnavailableError) return { ...base, unavailable: error.message };
      throw error;
    }
    const list = out == null ? [] : Array.isArray(out) ? out : [out];
    const tools = list.map((tool) => {
      const data: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(tool)) {
        if (key === "execute") continue;
        if (typeof value === "function")
          throw new Error(`${packageName}: tool ${tool.name} has a function "${key}" a manifest cannot hold`);
        data[key] = value;
      }
      return json(data);
    });
    return { ...base, tools };
  });
  return {
    section: plugin.section,
    packageName,
    version,
    pluginId: plugin.id,
    ...(plugin.description ? { description: plugin.description } : {}),
    ...(plugin.configSchema ? { configSchema: json(plugin.configSchema) as Record<string, unknown> } : {}),
    ...(plugin.resources ? { resources: true as const } : {}),
    ...(plugin.prompts ? { prompts: true as const } : {}),
    registrations,
  };
}

/** The context manifests are generated in: a workspace and state directory, no configuration. */
export function referenceContext(workspaceDir: string, stateDir: string): ToolContext {
  return { workspaceDir, stateDir, agentId: "cli", sessionKey: "agent:cli:main", config: {} };
}
