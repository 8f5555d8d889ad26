/**
 * clawtools' stand-in for `openclaw/plugin-sdk/plugin-entry`, `…/tool-plugin` and `…/core`:
 * the loader maps those imports here, so a plugin loads without the openclaw package. The entry
 * helpers return the entry as OpenClaw's do; registration goes to the recording api.
 */

/** The `api` a plugin's register gets (see the loader for what each member does here). */
export type OpenClawPluginApi = Record<string, any>;

export interface OpenClawPluginEntry {
  id: string;
  name?: string;
  description?: string;
  kind?: string;
  configSchema?: unknown;
  register(api: OpenClawPluginApi): void | Promise<void>;
  [key: string]: unknown;
}

/** `definePluginEntry`: the entry itself (OpenClaw only adds a lazily built config schema). */
export function definePluginEntry<T extends OpenClawPluginEntry>(entry: T): T {
  if (typeof entry?.register !== "function") throw new Error("definePluginEntry: register(api) is required");
  return entry;
}

/** `defineChannelPluginEntry` (plugin-sdk/core): loads; its channel registration is reported unsupported. */
export const defineChannelPluginEntry = definePluginEntry;

/** A tool as `defineToolPlugin`'s `tool()` declares it: execute(params, config, context). */
export interface DeclaredTool {
  name: string;
  label?: string;
  description: string;
  parameters: unknown;
  optional?: boolean;
  execute(params: any, config: unknown, context: Record<string, unknown>): unknown;
}

/** A declared tool's return value as an AgentTool result: text as is, JSON shown and kept in details. */
function wrapResult(value: unknown): { content: Array<{ type: "text"; text: string }>; details: unknown } {
  if (typeof value === "string") return { content: [{ type: "text", text: value }], details: null };
  const text = value === undefined ? "" : JSON.stringify(value, null, 2);
  return { content: [{ type: "text", text }], details: value ?? null };
}

/**
 * `defineToolPlugin` (openclaw ≥ 2026.5.17): tools declared with `tool({...})`, registered on
 * register as factories so each call sees the plugin's config and the tool context.
 */
export function defineToolPlugin(input: {
  id: string;
  name?: string;
  description?: string;
  configSchema?: unknown;
  tools: (tool: (def: DeclaredTool) => DeclaredTool) => DeclaredTool[];
}): OpenClawPluginEntry {
  if (typeof input?.tools !== "function") throw new Error("defineToolPlugin: tools(tool) is required");
  const declared = input.tools((def) => def);
  return {
    id: input.id,
    ...(input.name ? { name: input.name } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.configSchema ? { configSchema: input.configSchema } : {}),
    register(api) {
      for (const def of declared) {
        api.registerTool(
          (context: Record<string, unknown>) => ({
            name: def.name,
            ...(def.label ? { label: def.label } : {}),
            description: def.description,
            parameters: def.parameters,
            execute: async (toolCallId: string, params: unknown, signal?: AbortSignal) =>
              wrapResult(await def.execute(params, api.pluginConfig, { ...context, toolCallId, signal })),
          }),
          { name: def.name, ...(def.optional ? { optional: true } : {}) },
        );
      }
    },
  };
}
