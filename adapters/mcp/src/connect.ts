import type { AnyAgentTool } from "@clawtools/core";
import type { PluginResources } from "@clawtools/core/resources";
import { importMcpTools } from "./import.js";
import { type McpResourceClientLike, MountedResources } from "./mounted-resources.js";
import { MOUNTED_MAX_MESSAGE_BYTES, StdioLineBuffer } from "./stdio-read-buffer.js";
import { MCP_PACKAGE_VERSION } from "./version.js";

/** An MCP server as Claude Desktop and Cursor configure one: a command over stdio, or a URL. */
export type McpServerConfig =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> };

export interface ConnectedMcpServer {
  name: string;
  /** The server's tools as AgentTools, named `<name>__<tool>`. */
  tools: AnyAgentTool[];
  /**
   * The server's resources (when it declares the capability), served under
   * `clawtools://mcp/<name>/<its URI>`; its tools' resource links point there.
   */
  resources?: PluginResources;
  /** Closes the connection (a stdio server's process ends with it). */
  close(): Promise<void>;
  /** Settles when the connection ends, by `close()` or because the server went away. */
  closed: Promise<void>;
}

/** How long a stdio server may stay silent on server/discover before it is taken as 2025-era. */
export const DEFAULT_PROBE_TIMEOUT_MS = 5000;

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
 * The SDK's client (v2, both protocol eras) loads only here, for apps that mount servers. The
 * protocol is found by probing with `server/discover` (2026-07-28), falling back to `initialize`
 * (2025-11-25 and older). On stdio the probe goes to the server's one process (the SDK's own
 * probe would start a second, short-lived copy of the command first, doubling a slow server's
 * start); a server that answers it with an error gets `initialize` on the same pipe, one silent
 * for `probeTimeoutMs` is taken as 2025-era, and one that exits on the early request (as servers
 * that refuse anything before `initialize` do) is started again and gets `initialize` only.
 * `signal` gives up: aborted before the start nothing is started; aborted during it, the
 * connection (a stdio server's process) is closed and the promise rejects with the abort reason.
 */
export async function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options: { timeoutMs?: number; probeTimeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ConnectedMcpServer> {
  const problem = mcpServerConfigProblem(config);
  if (problem) throw new Error(`MCP server "${name}": ${problem}`);
  const { signal } = options;
  // named, not the namespace: the CLI bundles the SDK and keeps only what is used
  const { Client, StreamableHTTPClientTransport, SdkError, SdkErrorCode, deserializeMessage } = await import(
    "@modelcontextprotocol/client"
  );
  const sdk: Sdk = { Client, StreamableHTTPClientTransport, SdkError, SdkErrorCode, deserializeMessage };
  // checked after the import too: nothing is started once the caller gave up
  signal?.throwIfAborted();
  try {
    return await connectWith(sdk, name, config, "auto", options);
  } catch (error) {
    // a stdio server that exited on the early server/discover is a 2025-era one that refuses
    // anything before initialize: its second (and last) start skips the probe
    if (signal?.aborted || !("command" in config) || !exitedOnProbe(sdk, error)) throw error;
    return connectWith(sdk, name, config, "legacy", options);
  }
}

type Sdk = Pick<
  typeof import("@modelcontextprotocol/client"),
  "Client" | "StreamableHTTPClientTransport" | "SdkError" | "SdkErrorCode" | "deserializeMessage"
>;

/** What the SDK throws when the connection closed while its in-place probe waited for an answer. */
function exitedOnProbe(sdk: Sdk, error: unknown): boolean {
  return (
    error instanceof sdk.SdkError &&
    error.code === sdk.SdkErrorCode.EraNegotiationFailed &&
    /closed during the server\/discover probe/.test(error.message)
  );
}

async function connectWith(
  sdk: Sdk,
  name: string,
  config: McpServerConfig,
  mode: "auto" | "legacy",
  options: { timeoutMs?: number; probeTimeoutMs?: number; signal?: AbortSignal },
): Promise<ConnectedMcpServer> {
  const { signal } = options;
  // "auto": server/discover first; a 2026-07-28 server is used as one, a 2025-era server (no
  // answer, or an error for the unknown method) gets the initialize handshake
  const client = new sdk.Client(
    { name: "clawtools", version: MCP_PACKAGE_VERSION },
    {
      versionNegotiation:
        mode === "auto"
          ? { mode, probe: { timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS } }
          : { mode },
    },
  );
  const transport = await openTransport(config, sdk);
  // a server that hangs in its handshake is closed (its process ended) when the caller gives up
  const giveUp = () => void client.close().catch(() => {});
  signal?.addEventListener("abort", giveUp, { once: true });
  try {
    await client.connect(transport, signal ? { signal } : {});
    const resources = client.getServerCapabilities()?.resources
      ? new MountedResources(name, client as unknown as McpResourceClientLike)
      : undefined;
    const tools = await importMcpTools(client, {
      prefix: `${name}__`,
      ...(resources ? { resourceUri: (uri: string) => resources.served(uri) } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    signal?.throwIfAborted();
    const closed = new Promise<void>((resolve) => {
      const before = client.onclose;
      client.onclose = () => {
        before?.();
        resolve();
      };
    });
    return { name, tools, ...(resources ? { resources } : {}), close: () => client.close(), closed };
  } catch (error) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener("abort", giveUp);
  }
}

/** The client's transport, not started: the command's process (stdio) or the URL (Streamable HTTP). */
async function openTransport(config: McpServerConfig, sdk: Sdk) {
  if (!("command" in config))
    return new sdk.StreamableHTTPClientTransport(new URL(config.url), {
      ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
    });
  const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/client/stdio");
  // a subclass of the SDK's transport: the SDK probes on it in place instead of in a second
  // process of the same command (see connectMcpServer)
  class OneProcessStdio extends StdioClientTransport {}
  const transport = new OneProcessStdio({
    command: config.command,
    ...(config.args ? { args: config.args } : {}),
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd ? { cwd: config.cwd } : {}),
    maxBufferSize: MOUNTED_MAX_MESSAGE_BYTES,
  });
  // the session's reader: linear in a big answer, and one over the limit fails its call only
  // (the SDK's own drops the connection); kept when a later SDK no longer has the field
  const internal = transport as unknown as { _readBuffer?: { append?: unknown } };
  if (typeof internal._readBuffer?.append === "function")
    internal._readBuffer = new StdioLineBuffer(MOUNTED_MAX_MESSAGE_BYTES, sdk.deserializeMessage) as never;
  return transport;
}
