import type { AnyAgentTool, JsonSchema } from "@clawtools/core";
import type { ToolMeta } from "@clawtools/core/catalog";
import { toolInputSchema } from "@clawtools/core/providers";
import type { Tool } from "@modelcontextprotocol/server";
import { CORE_OUTPUT_SCHEMAS } from "./output-schemas.js";

/** Reach beyond the machine (the web, a browser): MCP `openWorldHint: true`. */
const OPEN_WORLD_SECTIONS = new Set(["web"]);
const OPEN_WORLD_TOOLS = new Set(["browser"]);
/** Work only inside the workspace or the local state: `openWorldHint: false`. */
const CLOSED_WORLD_SECTIONS = new Set(["fs", "memory"]);

/**
 * A tool one of clawtools' own sections provides (not a third-party plugin, even one that takes a
 * core tool's name, as an OpenClaw memory plugin replacing the memory section does).
 */
const fromClawtools = (meta: ToolMeta | undefined) =>
  meta !== undefined &&
  (meta.pluginId === undefined ? meta.source === "core" : meta.pluginId.startsWith("@clawtools/"));

const humanize = (name: string) => {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A tool's display title: its own label or its catalog label when that is more than the name,
 * else the catalog's short description ("Read file contents"), else the name made readable.
 * Core's catalog labels are the bare ids (as OpenClaw's), which say nothing a name does not.
 */
export function toolTitle(tool: AnyAgentTool, meta?: ToolMeta): string {
  for (const label of [tool.label, meta?.label])
    if (label?.trim() && label !== tool.name) return label.trim();
  if (fromClawtools(meta) && meta?.description) return meta.description;
  return humanize(tool.name);
}

/** The outputSchema a tool declares (`outputSchema` on the tool), else the core table's. */
export function toolOutputSchema(tool: AnyAgentTool, meta?: ToolMeta): JsonSchema | undefined {
  const own = (tool as { outputSchema?: JsonSchema }).outputSchema;
  if (own) return own;
  // the table describes clawtools' own tools, not a plugin's tool that happens to share a name
  return fromClawtools(meta) ? CORE_OUTPUT_SCHEMAS[tool.name] : undefined;
}

function annotationsOf(tool: AnyAgentTool, meta: ToolMeta | undefined): NonNullable<Tool["annotations"]> {
  const annotations: NonNullable<Tool["annotations"]> = { title: toolTitle(tool, meta) };
  if (meta?.readOnly !== undefined) annotations.readOnlyHint = meta.readOnly;
  if (meta?.destructive !== undefined) annotations.destructiveHint = meta.destructive;
  else if (meta?.readOnly === true) annotations.destructiveHint = false;
  const section = meta?.sectionId ?? "";
  if (OPEN_WORLD_SECTIONS.has(section) || OPEN_WORLD_TOOLS.has(tool.name)) annotations.openWorldHint = true;
  else if (CLOSED_WORLD_SECTIONS.has(section)) annotations.openWorldHint = false;
  return annotations;
}

/**
 * A tool as MCP `tools/list` shows it: title, normalised input schema, annotations (read-only,
 * destructive and open-world hints from the catalog) and, for a structured result of known
 * shape, its outputSchema.
 */
export function toMcpTool(tool: AnyAgentTool, meta?: ToolMeta): Tool {
  const outputSchema = toolOutputSchema(tool, meta);
  return {
    name: tool.name,
    title: toolTitle(tool, meta),
    description: tool.description,
    inputSchema: toolInputSchema(tool.parameters) as Tool["inputSchema"],
    ...(outputSchema ? { outputSchema: outputSchema as Tool["outputSchema"] } : {}),
    annotations: annotationsOf(tool, meta),
    // 2025-11-25's task support (2026-07-28 drops the field; its clients learn it from the call)
    ...(tool.taskSupport ? { execution: { taskSupport: tool.taskSupport } } : {}),
  };
}
