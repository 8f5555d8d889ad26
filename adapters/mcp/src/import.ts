import { createHash } from "node:crypto";
import type { AgentToolResult, AnyAgentTool, JsonSchema, ToolContent } from "@clawtools/core";

export interface ImportMcpToolsOptions {
  /** Prepended to every tool name (`github_` → `github_create_issue`). */
  prefix?: string;
  /** Per-call timeout in ms passed to the SDK (default: the SDK's). */
  timeoutMs?: number;
  /**
   * Where the server's resources are served (a mount: `clawtools://mcp/<name>/<uri>`): its
   * results' `resource_link`s and embedded resources get this URI, so the client reads them
   * through clawtools. Without it they are kept as JSON text.
   */
  resourceUri?: (uri: string) => string;
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

function toContent(block: McpContent, resourceUri?: (uri: string) => string): ToolContent {
  if (block.type === "text" && typeof block.text === "string") return { type: "text", text: block.text };
  if ((block.type === "image" || block.type === "audio") && block.data && block.mimeType)
    return { type: block.type, data: block.data, mimeType: block.mimeType };
  if (
    resourceUri &&
    block.type === "resource_link" &&
    typeof block.uri === "string" &&
    typeof block.name === "string"
  ) {
    const { type: _type, uri, name, title, description, mimeType, size } = block;
    return {
      type: "resource_link",
      uri: resourceUri(uri),
      name,
      ...(typeof title === "string" ? { title } : {}),
      ...(typeof description === "string" ? { description } : {}),
      ...(typeof mimeType === "string" ? { mimeType } : {}),
      ...(typeof size === "number" ? { size } : {}),
    };
  }
  const embedded = block.resource as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
  if (resourceUri && block.type === "resource" && typeof embedded?.uri === "string") {
    const body =
      typeof embedded.blob === "string" ? { blob: embedded.blob } : { text: String(embedded.text ?? "") };
    return {
      type: "resource",
      resource: {
        uri: resourceUri(embedded.uri),
        ...(typeof embedded.mimeType === "string" ? { mimeType: embedded.mimeType } : {}),
        ...body,
      },
    };
  }
  // resources and links have no AgentTool block: keep them as JSON text
  return { type: "text", text: JSON.stringify(block) };
}

const NAME_UNSAFE = /[^a-z0-9_]/g;

/** The longest tool name served: OpenAI and Gemini reject longer ones (clawtools' own contract). */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The name a remote tool is served under: `<prefix><tool>`, lower-case, characters outside
 * `[a-z0-9_]` as `_`. A longer name than 64 characters keeps its first 55 and ends in `_` and 8
 * hex digits of the SHA-256 of the full name as the server gave it: the same every start, and
 * distinct for names that differ only past the cut.
 */
export function servedToolName(prefix: string, remote: string): string {
  const name = `${prefix}${remote}`.toLowerCase().replace(NAME_UNSAFE, "_");
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = createHash("sha256").update(`${prefix}${remote}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${hash}`;
}

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
      const name = servedToolName(options.prefix ?? "", remote.name);
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
            ? (result.content as McpContent[]).map((block) => toContent(block, options.resourceUri))
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
