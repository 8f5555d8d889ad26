import type { AnyAgentTool, JsonSchema } from "@clawtools/core";
import type { McpToolsetLike } from "./server.js";
import { toMcpTool } from "./tool-listing.js";

type McpTool = ReturnType<typeof toMcpTool>;

/** A toolset's tools as MCP serves them: by name (aliases included), listed, and each one's output schema. */
export interface ToolView {
  tools: AnyAgentTool[];
  /** Every tool by its name, and by its `callAliases` (dispatch_action's tool_call), which answer calls unlisted. */
  byName: Map<string, AnyAgentTool>;
  listed: McpTool[];
  outputSchemas: Map<string, JsonSchema | undefined>;
}

/**
 * The current view of `toolset`: rebuilt only when its tools array changes (roots, servers
 * that come and go), so a call costs a map lookup. One for the SDK server and stdio's front.
 */
export function followToolView(toolset: McpToolsetLike): () => ToolView {
  let view: ToolView | undefined;
  return () => {
    const tools = toolset.tools;
    if (view?.tools === tools) return view;
    const byName = new Map<string, AnyAgentTool>();
    for (const tool of tools)
      for (const alias of (tool as { callAliases?: readonly string[] }).callAliases ?? [])
        byName.set(alias, tool);
    for (const tool of tools) byName.set(tool.name, tool);
    const listed = tools.map((tool) => toMcpTool(tool, toolset.meta?.(tool.name)));
    const outputSchemas = new Map(listed.map((t) => [t.name, t.outputSchema as JsonSchema | undefined]));
    view = { tools, byName, listed, outputSchemas };
    return view;
  };
}
