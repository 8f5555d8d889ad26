import type { AgentToolResult, AnyAgentTool, ToolMeta } from "@clawtools/core";
import { isAbortError, normalizeToolParameters, toolErrorResult } from "@clawtools/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

/** What the server needs: tools (normally from createToolset) and optional catalog metadata. */
export interface McpToolsetLike {
  tools: AnyAgentTool[];
  meta?(name: string): ToolMeta | undefined;
}

export interface CreateMcpServerOptions {
  name?: string;
  version?: string;
  /** Free-text instructions sent to the client at initialisation. */
  instructions?: string;
}

/** A tool as MCP `tools/list` shows it: normalised input schema plus read-only / destructive hints. */
export function toMcpTool(tool: AnyAgentTool, meta?: ToolMeta): Tool {
  const annotations: NonNullable<Tool["annotations"]> = { title: meta?.label ?? tool.label ?? tool.name };
  if (meta?.readOnly !== undefined) annotations.readOnlyHint = meta.readOnly;
  if (meta?.destructive !== undefined) annotations.destructiveHint = meta.destructive;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: normalizeToolParameters(tool.parameters) as Tool["inputSchema"],
    annotations,
  };
}

function toCallToolResult(result: AgentToolResult<unknown>): CallToolResult {
  return {
    content: result.content.map((block) =>
      block.type === "text"
        ? { type: "text" as const, text: block.text }
        : { type: "image" as const, data: block.data, mimeType: block.mimeType },
    ),
    ...(result.isError ? { isError: true } : {}),
  };
}

/**
 * An MCP server (the SDK's low-level Server, which takes JSON Schema as is) exposing a toolset:
 * `tools/list`, `tools/call` with text and image content, `isError` for tool errors, progress
 * notifications from `onUpdate` when the client sent a progress token, and cancellation that
 * aborts the tool. Connect it to any transport (`server.connect(new StdioServerTransport())`).
 */
export function createMcpServer(toolset: McpToolsetLike, options: CreateMcpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? "clawtools", version: options.version ?? "0.1.0" },
    { capabilities: { tools: {} }, ...(options.instructions ? { instructions: options.instructions } : {}) },
  );
  const byName = new Map(toolset.tools.map((tool) => [tool.name, tool]));
  const listed = toolset.tools.map((tool) => toMcpTool(tool, toolset.meta?.(tool.name)));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool)
      return toCallToolResult(toolErrorResult(request.params.name, `Tool ${request.params.name} not found`));
    const progressToken = request.params._meta?.progressToken;
    let progress = 0;
    const onUpdate =
      progressToken === undefined
        ? undefined
        : (partial: { content?: AgentToolResult<unknown>["content"] }) => {
            const text = partial.content?.map((c) => (c.type === "text" ? c.text : "")).join("") ?? "";
            progress += 1;
            extra
              .sendNotification({
                method: "notifications/progress",
                params: { progressToken, progress, message: text.slice(-1000) },
              })
              .catch(() => {});
          };
    try {
      const result = await tool.execute(
        String(extra.requestId),
        request.params.arguments ?? {},
        extra.signal,
        onUpdate,
      );
      return toCallToolResult(result);
    } catch (error) {
      // an aborted call's answer is never read (the client cancelled); anything else is a tool error
      if (isAbortError(error) || extra.signal.aborted)
        return toCallToolResult(toolErrorResult(tool.name, "Aborted"));
      return toCallToolResult(toolErrorResult(tool.name, error));
    }
  });
  return server;
}
