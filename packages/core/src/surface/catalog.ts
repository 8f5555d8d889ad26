import type { ToolMeta } from "../catalog.js";
import type { AnyAgentTool, JsonSchema } from "../tool.js";
import { inputSignature } from "./signature.js";

/**
 * Where a catalog tool comes from. `clawtools`: a clawtools section; `plugin`: a plugin the user
 * named (trusted as the user's own code, as OpenClaw trusts plugin tools); `mcp`: a mounted MCP
 * server, whose names, descriptions and schemas are untrusted text.
 */
export type CatalogSource = "clawtools" | "plugin" | "mcp";

export type CatalogEntry = {
  /** `<source>:<sourceName>:<name>`, unique in the catalog. */
  id: string;
  name: string;
  source: CatalogSource;
  sourceName: string;
  label?: string;
  description: string;
  parameters: JsonSchema;
  outputSchema?: JsonSchema;
  tool: AnyAgentTool;
};

/** The surfaces' own tool names: never catalogued, so a catalog can never call itself. */
export const SURFACE_TOOL_NAMES = new Set(["tool_search", "tool_describe", "dispatch_action", "tool_call"]);

const MCP_PLUGIN = /^mcp(?:-retry)?:(.+)$/;

export function classifyTool(meta: ToolMeta | undefined): { source: CatalogSource; sourceName: string } {
  const pluginId = meta?.pluginId;
  const mcp = pluginId ? MCP_PLUGIN.exec(pluginId) : null;
  if (mcp) return { source: "mcp", sourceName: mcp[1]! };
  if (!pluginId || pluginId.startsWith("@clawtools/"))
    return { source: "clawtools", sourceName: meta?.sectionId ?? "core" };
  return { source: "plugin", sourceName: pluginId };
}

export function toCatalogEntry(tool: AnyAgentTool, meta: ToolMeta | undefined): CatalogEntry {
  const { source, sourceName } = classifyTool(meta);
  const outputSchema = (tool as { outputSchema?: JsonSchema }).outputSchema;
  return {
    id: `${source}:${sourceName}:${tool.name}`,
    name: tool.name,
    source,
    sourceName,
    ...(tool.label ? { label: tool.label } : {}),
    description: tool.description ?? "",
    parameters: (tool.parameters ?? {}) as JsonSchema,
    ...(outputSchema && source !== "mcp" ? { outputSchema } : {}),
    tool,
  };
}

/** The compact form search results carry; an MCP tool's input is "unknown" until described. */
export function compactEntry(entry: CatalogEntry, describe: (text: string) => string) {
  return {
    id: entry.id,
    name: entry.name,
    source: entry.source,
    ...(entry.source === "clawtools" ? {} : { sourceName: entry.sourceName }),
    description: describe(entry.description),
    input: entry.source === "mcp" ? "unknown" : (inputSignature(entry.parameters) ?? "unknown"),
  };
}

/** Parameter names and descriptions of a trusted tool: often the only words a task shares with it. */
export function parameterText(schema: unknown, depth = 0): string {
  if (typeof schema !== "object" || schema === null || depth > 2) return "";
  const properties = (schema as JsonSchema).properties;
  if (typeof properties !== "object" || properties === null) return "";
  const parts: string[] = [];
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
    parts.push(name);
    const description = (value as JsonSchema | undefined)?.description;
    if (typeof description === "string") parts.push(description);
    parts.push(parameterText(value, depth + 1));
  }
  return parts.filter(Boolean).join(" ");
}
