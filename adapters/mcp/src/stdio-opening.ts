import type { AnyAgentTool } from "@clawtools/core";
import type { ToolMeta } from "@clawtools/core/catalog";
import { isObject, type JsonObject } from "./jsonrpc-shape.js";
import { type McpPromptsLike, promptsCapability } from "./prompts-capability.js";
import { type McpResourcesLike, resourcesCapability } from "./resources-capability.js";
import { toMcpTool } from "./tool-listing.js";
import { MCP_PACKAGE_VERSION } from "./version.js";

/**
 * What `serveStdio` answers before it has loaded the SDK: the 2025-era opening (`initialize`,
 * `notifications/initialized`, `ping`, `tools/list`) in exactly the SDK server's words. Each check
 * here accepts a subset of what the SDK's schemas accept; anything else goes to the SDK itself.
 */

/**
 * The 2025-era revisions SDK v2 negotiates in `initialize`, in its order of preference: the
 * requested one when listed, else the first. A test holds it equal to the SDK's list.
 */
export const LEGACY_PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

export interface ServerIdentity {
  name?: string;
  version?: string;
  instructions?: string;
  /** Set when calls can run as tasks (`createMcpServer`'s `tasks`). */
  tasks?: object | undefined;
}

/** The server's `serverInfo` (shared with `createMcpServer`). */
export const serverInfoOf = (options: ServerIdentity) => ({
  name: options.name ?? "clawtools",
  version: options.version ?? MCP_PACKAGE_VERSION,
});

/** What of a toolset decides the capabilities. */
type OpeningToolset = { onToolsChanged?: unknown; resources?: McpResourcesLike; prompts?: McpPromptsLike };

/** The server's capabilities (shared with `createMcpServer`). */
export const serverCapabilitiesOf = (toolset: OpeningToolset, tasks = false) => ({
  tools: toolset.onToolsChanged ? { listChanged: true } : {},
  // a tool's log messages reach the client (ClientChannel.log; deprecated on 2026-07-28, still served)
  logging: {},
  ...resourcesCapability(toolset.resources),
  ...promptsCapability(toolset.prompts, toolset.resources),
  // tasks: 2025-11-25's capability and 2026-07-28's extension (each era drops the other's)
  ...(tasks
    ? {
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
        extensions: { "io.modelcontextprotocol/tasks": {} },
      }
    : {}),
});

const optionalObject = (value: unknown, keys: Record<string, (v: unknown) => boolean> = {}) =>
  value === undefined ||
  (isObject(value) && Object.entries(keys).every(([key, ok]) => value[key] === undefined || ok(value[key])));

const optionalString = (value: unknown) => value === undefined || typeof value === "string";

/** Objects of objects: `experimental`, `extensions`. */
const recordOfObjects = (value: unknown) =>
  value === undefined || (isObject(value) && Object.values(value).every(isObject));

/** The client capabilities the SDK's `ClientCapabilitiesSchema` is sure to accept. */
function capabilitiesOk(caps: unknown): caps is JsonObject {
  if (!isObject(caps)) return false;
  const elicitation = caps.elicitation;
  return (
    recordOfObjects(caps.experimental) &&
    recordOfObjects(caps.extensions) &&
    optionalObject(caps.sampling, { context: isObject, tools: isObject }) &&
    optionalObject(caps.roots, { listChanged: (v) => typeof v === "boolean" }) &&
    optionalObject(elicitation, {
      form: (v) => optionalObject(v, { applyDefaults: (d) => typeof d === "boolean" }),
      url: isObject,
    }) &&
    // task capabilities (deprecated) and icons are left to the SDK's own schema
    caps.tasks === undefined
  );
}

function clientInfoOk(info: unknown): boolean {
  return (
    isObject(info) &&
    typeof info.name === "string" &&
    typeof info.version === "string" &&
    optionalString(info.title) &&
    optionalString(info.websiteUrl) &&
    optionalString(info.description) &&
    info.icons === undefined
  );
}

/** An `initialize` the front may answer: 2025-era (no `_meta` envelope) and surely valid. */
export interface FrontInitialize {
  protocolVersion: string;
  roots: boolean;
}

export function frontInitialize(params: unknown): FrontInitialize | undefined {
  if (!isObject(params) || params._meta !== undefined) return undefined;
  const { protocolVersion, capabilities } = params;
  if (
    typeof protocolVersion !== "string" ||
    !capabilitiesOk(capabilities) ||
    !clientInfoOk(params.clientInfo)
  )
    return undefined;
  return { protocolVersion, roots: capabilities.roots !== undefined };
}

/** The `initialize` result the SDK server sends for this request. */
export function initializeResult(requested: string, toolset: OpeningToolset, options: ServerIdentity) {
  const protocolVersion = LEGACY_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LEGACY_PROTOCOL_VERSIONS[0]!;
  return {
    protocolVersion,
    capabilities: serverCapabilitiesOf(toolset, options.tasks !== undefined),
    serverInfo: serverInfoOf(options),
    ...(options.instructions ? { instructions: options.instructions } : {}),
  };
}

/** Params without `_meta` and with nothing but the listed optional string fields. */
export function plainParams(params: unknown, strings: readonly string[] = []): boolean {
  if (params === undefined) return true;
  return (
    isObject(params) &&
    Object.entries(params).every(([key, value]) => strings.includes(key) && typeof value === "string")
  );
}

/** The `tools/list` result: every tool, in one page (the server never paginates). */
export function listResult(toolset: { tools: AnyAgentTool[]; meta?(name: string): ToolMeta | undefined }) {
  return { tools: toolset.tools.map((tool) => toMcpTool(tool, toolset.meta?.(tool.name))) };
}
