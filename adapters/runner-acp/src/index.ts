export { AgentProcess, type AgentProcessOptions } from "./agent-process.js";
export {
  decidePermission,
  type FsAccess,
  type PermissionOption,
  type PermissionOutcome,
  type PermissionPolicy,
  type PermissionRequest,
} from "./client-side.js";
export {
  AcpConnection,
  AcpConnectionError,
  AcpRpcError,
  isAcpConnectionError,
  isAcpRpcError,
} from "./connection.js";
export {
  ACP_PROTOCOL_VERSION,
  MAX_REPLY_CHARS,
  type AcpRunInfo,
  type AcpRunner,
  type AcpRunnerOptions,
  type AcpStartRunRequest,
  type AcpToolCall,
  type AcpUpdateEvent,
  createAcpRunner,
} from "./runner.js";
export { ACP_SESSION_KEY, isAcpSessionKey, withAcpSessions } from "./route.js";
