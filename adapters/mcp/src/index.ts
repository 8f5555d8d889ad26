export {
  type ConnectedMcpServer,
  connectMcpServer,
  DEFAULT_PROBE_TIMEOUT_MS,
  type McpServerConfig,
  mcpServerConfigProblem,
} from "./connect.js";
export {
  APPROVAL_CHOICES,
  APPROVAL_INPUT_KEY,
  approvalMessage,
  clientApprovalHandler,
  supportsFormElicitation,
} from "./elicit-approval.js";
export {
  type ImportMcpToolsOptions,
  importMcpTools,
  MAX_TOOL_NAME_LENGTH,
  type McpCallOptions,
  type McpClientLike,
  servedToolName,
} from "./import.js";
export {
  type McpResourceClientLike,
  MountedResources,
  mountedResourcePrefix,
} from "./mounted-resources.js";
export { answerTooLargeMessage, MOUNTED_MAX_MESSAGE_BYTES } from "./stdio-read-buffer.js";
export {
  DEFAULT_STOP_SIGNALS,
  type LifecycleOptions,
  type McpServing,
  type StopReason,
} from "./lifecycle.js";
export { CLIENT_ID_HEADER, statelessClientId } from "./http-clients.js";
export { normalizeOrigin, OriginPolicy, originRefusedMessage } from "./http-origin.js";
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  sessionNotFoundMessage,
  tooManySessionsMessage,
} from "./http-sessions.js";
export {
  isLoopbackHost,
  type McpHttpServing,
  type ServeHttpOptions,
  type SessionToolsetLike,
  serveHttp,
  tokenRequiredMessage,
} from "./http.js";
export {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_RESULT_CHARS,
  type ResultLimits,
  toCallToolResult,
  truncatedResultNotice,
} from "./result.js";
export type { McpRoot, RootsListener } from "./roots.js";
export { type McpResourcesLike, resourcesCapability } from "./resources-capability.js";
export { type McpPromptsLike, promptsCapability } from "./prompts-capability.js";
export { PROMPTS_PAGE_SIZE } from "./prompts.js";
export {
  type CreateMcpServerOptions,
  createMcpServer,
  type McpToolsetLike,
  NOT_INITIALIZED_MESSAGE,
  toMcpTool,
} from "./server.js";
export { type ServeStdioOptions, serveStdio } from "./stdio.js";
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  LineTransport,
  type LineTransportOptions,
  messageTooLargeMessage,
} from "./stdio-transport.js";
export { MCP_PACKAGE_VERSION } from "./version.js";
export {
  type StartTask,
  type TaskControl,
  TaskHost,
  type TaskHostOptions,
  type TaskOutcome,
} from "./task-host.js";
export { MISSING_CLIENT_CAPABILITY, TASKS_EXTENSION, type TaskSupport } from "./task-wire.js";
