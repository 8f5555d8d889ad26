import path from "node:path";
import type { AgentToolResult, ToolContext } from "@clawtools/core";
import type { LinkedFiles } from "@clawtools/core/resources";

/**
 * `result` with a `resource_link` to `file` appended (when the plugin serves its files), so a
 * host can read the screenshot, PDF or snapshot itself: the model only sees a path it cannot open.
 */
export function withFileLink<T>(
  result: AgentToolResult<T>,
  files: LinkedFiles | undefined,
  ctx: ToolContext,
  file: { path: string; mimeType: string; size: number; description: string },
): AgentToolResult<T> {
  if (!files) return result;
  const link = files.link(ctx, { ...file, name: path.basename(file.path) });
  return { ...result, content: [...result.content, link] };
}
