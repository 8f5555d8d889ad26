import { CORE_TOOL_GROUPS } from "../catalog.js";
import { normalizeToolList } from "./normalize.js";

/** Normalises each entry and replaces `group:*` entries by their members; de-duplicated, order kept. */
export function expandToolGroups(
  list: readonly string[] | undefined,
  groups: Readonly<Record<string, readonly string[]>> = CORE_TOOL_GROUPS,
): string[] {
  const out: string[] = [];
  for (const entry of normalizeToolList(list)) {
    const members = groups[entry];
    for (const name of members ?? [entry]) if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** Plugin tool names overall (`group:plugins`) and per plugin id. */
export interface PluginToolGroups {
  all: string[];
  byPlugin: Map<string, string[]>;
}

export function buildPluginToolGroups<T extends { name: string }>(params: {
  tools: readonly T[];
  toolMeta: (tool: T) => { pluginId?: string } | undefined;
}): PluginToolGroups {
  const all: string[] = [];
  const byPlugin = new Map<string, string[]>();
  for (const tool of params.tools) {
    const pluginId = params.toolMeta(tool)?.pluginId;
    if (!pluginId) continue;
    const name = normalizeToolList([tool.name])[0]!;
    all.push(name);
    const key = normalizeToolList([pluginId])[0]!;
    byPlugin.set(key, [...(byPlugin.get(key) ?? []), name]);
  }
  return { all, byPlugin };
}

/** Replaces `group:plugins` and plugin ids in a list by the plugin tools they stand for. */
export function expandPluginGroups(
  list: readonly string[] | undefined,
  groups: PluginToolGroups,
): string[] | undefined {
  if (!list) return undefined;
  const out: string[] = [];
  for (const entry of normalizeToolList(list)) {
    const members = entry === "group:plugins" ? groups.all : groups.byPlugin.get(entry);
    for (const name of members ?? [entry]) if (!out.includes(name)) out.push(name);
  }
  return out;
}
