import type { AnyAgentTool } from "@clawtools/core";
import { importMcpTools } from "./import.js";
import { MCP_PACKAGE_VERSION } from "./version.js";

/** An MCP server as Claude Desktop and Cursor configure one: a command over stdio, or a URL. */
export type McpServerConfig =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> };

export interface ConnectedMcpServer {
  name: string;
  /** The server's tools as AgentTools, named `<name>__<tool>`. */
  tools: AnyAgentTool[];
  /** Closes the connection (a stdio server's process ends with it). */
  close(): Promise<void>;
}

/** Why a server entry is not usable, or undefined when it is. */
export function mcpServerConfigProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return 'must be {"command", "args"?, "env"?} (stdio) or {"url", "headers"?} (Streamable HTTP)';
  const v = value as Record<string, unknown>;
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === "string");
  const stringMap = (x: unknown) =>
    typeof x === "object" &&
    x !== null &&
    !Array.isArray(x) &&
    Object.values(x).every((s) => typeof s === "string");
  if (typeof v.command === "string") {
    if (!v.command.trim()) return "command must not be empty";
    if (v.args !== undefined && !strings(v.args)) return "args must be an array of strings";
    if (v.env !== undefined && !stringMap(v.env)) return "env must map names to strings";
    if (v.cwd !== undefined && typeof v.cwd !== "string") return "cwd must be a string";
    return undefined;
  }
  if (typeof v.url === "string") {
    try {
      const url = new URL(v.url);
      if (url.protocol !== "http:" && url.protocol !== "https:") return `url must be http(s), got ${v.url}`;
    } catch {
      return `url is not a URL: ${v.url}`;
    }
    if (v.headers !== undefined && !stringMap(v.headers)) return "headers must map names to strings";
    return undefined;
  }
  return 'needs "command" (a stdio server) or "url" (Streamable HTTP)';
}

/**
 * Connects to one MCP server (stdio: started with the given command, a sanitised default
 * environment plus `env`; or Streamable HTTP) and imports its tools as `<name>__<tool>`.
 * The SDK's client loads only here, for apps that mount servers.
 */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: { timeoutMs?: number } = {},
): Promise<ConnectedMcpServer> {
  const problem = mcpServerConfigProblem(config);
  if (problem) throw new Error(`MCP server "${name}": ${problem}`);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: "clawtools", version: MCP_PACKAGE_VERSION });
  if ("command" in config) {
    const { StdioClientTransport, getDefaultEnvironment } = await import(
      "@modelcontextprotocol/sdk/client/stdio.js"
    );
    await client.connect(
      new StdioClientTransport({
        command: config.command,
        ...(config.args ? { args: config.args } : {}),
        env: { ...getDefaultEnvironment(), ...config.env },
        ...(config.cwd ? { cwd: config.cwd } : {}),
      }),
    );
  } else {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(config.url), {
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
      }),
    );
  }
  try {
    const tools = await importMcpTools(client, {
      prefix: `${name}__`,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    return { name, tools, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
