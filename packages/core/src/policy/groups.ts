import { CORE_TOOL_GROUPS } from "../catalog.js";
import { normalizeToolList, normalizeToolName } from "./normalize.js";

/** Normalises each entry and replaces `group:*` entries by their members; de-duplicated, order kept. */
export function expandToolGroups(
  list: readonly string[] | undefined,
  groups: Readonly<Record<string, readonly string[]>> = CORE_TOOL_GROUPS,
): string[] {
  const out = new Set<string>();
  for (const entry of normalizeToolList(list)) {
    for (const name of groups[entry] ?? [entry]) out.add(name);
  }
  return [...out];
}

/** Plugin tool names overall (`group:plugins`) and per plugin id. */
export interface PluginToolGroups {
  all: string[];
  byPlugin: Map<string, string[]>;
}

/** What the policy needs to know about a tool's origin; core tools (`source: "core"`) are not plugin tools. */
export interface PolicyToolMeta {
  pluginId?: string;
  source?: string;
}

/**
 * Every tool with plugin metadata belongs to `group:plugins`, including a plugin whose id is
 * empty; only a non-empty id also gets its own entry. Core tools provided by a section plugin
 * are not plugin tools.
 */
export function buildPluginToolGroups<T extends { name: string }>(params: {
  tools: readonly T[];
  toolMeta: (tool: T) => PolicyToolMeta | undefined;
}): PluginToolGroups {
  const all: string[] = [];
  const byPlugin = new Map<string, string[]>();
  const keys = new Map<string, string>();
  for (const tool of params.tools) {
    const meta = params.toolMeta(tool);
    if (!meta || meta.source === "core") continue;
    const name = normalizeToolName(tool.name);
    all.push(name);
    const pluginId = meta.pluginId ?? "";
    let key = keys.get(pluginId);
    if (key === undefined) {
      key = normalizeToolName(pluginId);
      keys.set(pluginId, key);
    }
    if (!key) continue;
    const members = byPlugin.get(key);
    if (members) members.push(name);
    else byPlugin.set(key, [name]);
  }
  return { all, byPlugin };
}

/** Replaces `group:plugins` and plugin ids in a list by the plugin tools they stand for. */
export function expandPluginGroups(
  list: readonly string[] | undefined,
  groups: PluginToolGroups,
): string[] | undefined {
  if (!list) return undefined;
  const out = new Set<string>();
  for (const entry of normalizeToolList(list)) {
    // `group:plugins` with no plugin tools stays literal, so it matches nothing.
    const members = entry === "group:plugins" ? groups.all : groups.byPlugin.get(entry);
    for (const name of members?.length ? members : [entry]) out.add(name);
  }
  return [...out];
}
