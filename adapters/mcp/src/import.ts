import type { AgentToolResult, AnyAgentTool, JsonSchema, ToolContent } from "@clawtools/core";

export interface ImportMcpToolsOptions {
  /** Prepended to every tool name (`github_` → `github_create_issue`). */
  prefix?: string;
  /** Per-call timeout in ms passed to the SDK (default: the SDK's). */
  timeoutMs?: number;
}

/**
 * What `importMcpTools` needs from an MCP client: the SDK's `Client` (any 1.x version) has this
 * shape, and so can any other client. Typed structurally, so an app's own SDK copy works.
 */
export interface McpClientLike {
  listTools(params?: { cursor?: string }): Promise<{
    tools: Array<{
      name: string;
      title?: string;
      description?: string;
      inputSchema: object;
      annotations?: { title?: string };
    }>;
    nextCursor?: string;
  }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: {
      signal?: AbortSignal;
      timeout?: number;
      onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
    },
  ): Promise<{ content?: unknown; structuredContent?: unknown; isError?: unknown; [key: string]: unknown }>;
}

type McpContent = {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  resource?: unknown;
  [k: string]: unknown;
};

function toContent(block: McpContent): ToolContent {
  if (block.type === "text" && typeof block.text === "string") return { type: "text", text: block.text };
  if ((block.type === "image" || block.type === "audio") && block.data && block.mimeType)
    return { type: block.type, data: block.data, mimeType: block.mimeType };
  // resources and links have no AgentTool block: keep them as JSON text
  return { type: "text", text: JSON.stringify(block) };
}

const NAME_UNSAFE = /[^a-z0-9_]/g;

/**
 * The tools of a connected MCP server as AgentTools, so a bundle can mix clawtools and remote
 * MCP tools under one policy and pipeline. Schemas pass through (validation runs on them in
 * createToolset); cancellation and progress are forwarded.
 */
export async function importMcpTools(
  client: McpClientLike,
  options: ImportMcpToolsOptions = {},
): Promise<AnyAgentTool[]> {
  const tools: AnyAgentTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    for (const remote of page.tools) {
      const name = `${options.prefix ?? ""}${remote.name}`.toLowerCase().replace(NAME_UNSAFE, "_");
      tools.push({
        name,
        label: remote.annotations?.title ?? remote.title ?? remote.name,
        description: remote.description ?? "",
        parameters: remote.inputSchema as JsonSchema,
        async execute(_id, params, signal, onUpdate): Promise<AgentToolResult<unknown>> {
          const result = await client.callTool(
            { name: remote.name, arguments: params as Record<string, unknown> },
            undefined,
            {
              ...(signal ? { signal } : {}),
              ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
              ...(onUpdate
                ? {
                    onprogress: (p: { progress: number; message?: string }) =>
                      onUpdate({ content: [{ type: "text", text: p.message ?? `progress ${p.progress}` }] }),
                  }
                : {}),
            },
          );
          const content = Array.isArray(result.content)
            ? (result.content as McpContent[]).map(toContent)
            : [];
          if (content.length === 0 && result.structuredContent !== undefined) {
            content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
          }
          return {
            content,
            details: result.structuredContent ?? { server: "mcp", tool: remote.name },
            ...(result.isError ? { isError: true } : {}),
          };
        },
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
