export { createRuntimePlugin, default, type RuntimePluginOptions, runtimePlugin } from "./plugin.js";
export { encodeKeyToken, encodeSendKeys } from "./process/keys.js";
export { type BackgroundExitNotice, backgroundExitNotice } from "./process/exit-notice.js";
export { resolveSessionLimits, resolveYieldMs, type SessionLimits } from "./process/limits.js";
export { ProcessRegistry } from "./process/registry.js";
export { ProcessSession, type SessionStatus } from "./process/session.js";
export { type AllowlistEntry, allowlistMisses, DEFAULT_SAFE_BINS } from "./security/allowlist.js";
export { analyzeCommandLine } from "./security/command-line.js";
export { commandsOf, effectiveCommands } from "./security/command-prefixes.js";
export { APPROVE_REFUSED, refuseApprovalCommands } from "./security/control-commands.js";
export { BLOCKED_ENV_KEYS, BLOCKED_ENV_PREFIXES, isBlockedEnvKey, sanitizeEnv } from "./security/env.js";
export * from "./security/policy.js";
export { COMPLEX_INTERPRETER_REFUSED, preflightScripts } from "./security/script-preflight.js";
export { createExecTool, type ExecDetails, type ExecToolOptions, execSchema } from "./tools/exec.js";
export type { ExecHost } from "./tools/exec-host.js";
export {
  applyElevated,
  type ElevatedLevel,
  type ExecHostKind,
  type ExecTarget,
  resolveExecHost,
} from "./tools/exec-target.js";
export { createProcessTool, processSchema } from "./tools/process.js";
