import type { AgentToolResult, AnyAgentTool, JsonSchema, ToolContent } from "@clawtools/core";

export interface ImportMcpToolsOptions {
  /** Prepended to every tool name (`github_` → `github_create_issue`). */
  prefix?: string;
  /** Per-call timeout in ms passed to the SDK (default: the SDK's). */
  timeoutMs?: number;
}

/** What a tool call is sent with: cancellation, a timeout, progress. */
export interface McpCallOptions {
  signal?: AbortSignal;
  timeout?: number;
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * What `importMcpTools` needs from an MCP client. SDK v2's `Client` (`@modelcontextprotocol/client`,
 * either protocol era) takes `callTool(params, options)`; the 1.x SDK's takes
 * `callTool(params, resultSchema, options)`: both fit, told apart by v2's `getProtocolEra`.
 * Typed structurally, so an app's own SDK copy works.
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
    // v2 passes options here, 1.x a result schema
    second?: any,
    options?: McpCallOptions,
  ): Promise<{ content?: unknown; structuredContent?: unknown; isError?: unknown; [key: string]: unknown }>;
  /** SDK v2's clients have it (1.x's do not). */
  getProtocolEra?: () => string | undefined;
}

/** Calls a tool on either SDK's client with the same options. */
function callOn(
  client: McpClientLike,
  params: { name: string; arguments?: Record<string, unknown> },
  options: McpCallOptions,
) {
  return typeof client.getProtocolEra === "function"
    ? client.callTool(params, options)
    : client.callTool(params, undefined, options);
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
          const result = await callOn(
            client,
            { name: remote.name, arguments: params as Record<string, unknown> },
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
