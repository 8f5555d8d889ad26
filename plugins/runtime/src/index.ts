export { ExecGate, type ExecGateOptions, type ExecGateRequest } from "./tools/exec-decision.js";
export {
  type ExecConfig,
  execConfigSchema,
  parseRuntimeConfig,
  type RuntimeConfig,
  readRuntimeConfig,
  runtimeConfigSchema,
} from "./config.js";
export { createRuntimePlugin, default, type RuntimePluginOptions, runtimePlugin } from "./plugin.js";
export { encodeKeyToken, encodeSendKeys } from "./process/keys.js";
export { type BackgroundExitNotice, backgroundExitNotice } from "./process/exit-notice.js";
export { resolveSessionLimits, resolveYieldMs, type SessionLimits } from "./process/limits.js";
export { type BackgroundProcess, localProcessHost, type ProcessHost } from "./process/host.js";
export { type CutView, type LogView, logView, pollView, resultView } from "./process/output-views.js";
export { ProcessRegistry, type ProcessRegistryOptions } from "./process/registry.js";
export {
  execOutputLink,
  execOutputPartUri,
  execOutputResources,
  execOutputUri,
} from "./exec-output-resources.js";
export {
  ProcessSession,
  ptyLoaded,
  type SessionExit,
  type SessionStatus,
  type SpawnOptions,
} from "./process/session.js";
export { SessionOutput, type SessionOutputOptions } from "./process/session-output.js";
export {
  type AllowlistEntry,
  type AllowlistOptions,
  type AllowlistVerdict,
  evaluateAllowlist,
} from "./security/allowlist.js";
export {
  describeVerdict,
  ExecPolicy,
  type ExecPolicyConfig,
  type PolicyVerdict,
  type SegmentVerdict,
} from "./security/exec-policy.js";
export { type ExecRule, matchRule, type RuleDecision } from "./security/exec-rules.js";
export { isRuleFileError, loadClaudeRules, loadCodexRules, RuleFileError } from "./security/rule-files.js";
export { parseShell, type ParsedCommand, type ShellParse, type ShellWord } from "./security/shell-grammar.js";
export { ExecSandbox, type SandboxMode, type SandboxOptions } from "./sandbox/sandbox.js";
export { bwrapArgs, findBwrap, probeBwrap } from "./sandbox/bwrap.js";
export { analyzeCommandLine } from "./security/command-line.js";
export { commandsOf, effectiveCommands } from "./security/command-prefixes.js";
export { APPROVE_REFUSED, refuseApprovalCommands } from "./security/control-commands.js";
export {
  BLOCKED_ENV_KEYS,
  BLOCKED_ENV_PREFIXES,
  checkCallEnv,
  isBlockedEnvKey,
  isBlockedInheritedEnvKey,
  PATH_FORBIDDEN,
  sanitizeEnv,
} from "@clawtools/core/safety";
export {
  type ExecApprovalDecision,
  type ExecApprovalHandler,
  type ExecApprovalRequest,
  type ExecAsk,
  type ExecSecurity,
  effectiveAsk,
  effectiveSecurity,
  NO_APPROVAL_ROUTE,
} from "./security/policy.js";
export {
  DEFAULT_SAFE_BINS,
  DEFAULT_TRUSTED_DIRS,
  SAFE_BIN_PROFILES,
  type SafeBinProfile,
} from "./security/safe-bin-profiles.js";
export { safeBinProblem } from "./security/safe-bins.js";
export { COMPLEX_INTERPRETER_REFUSED, preflightScripts } from "./security/script-preflight.js";
export { type PlainRead, readPlain, type SimpleCommand } from "./security/allowlist-read.js";
export { shellQuote } from "./security/shell-quote.js";
export {
  createExecTool,
  type ExecCodeOptions,
  type ExecDetails,
  type ExecToolOptions,
  execSchema,
  MAX_COMMAND_CHARS,
} from "./tools/exec.js";
export type { ExecHost } from "./tools/exec-host.js";
export {
  applyElevated,
  type ElevatedLevel,
  type ExecHostKind,
  type ExecTarget,
  resolveExecHost,
} from "./tools/exec-target.js";
export { createProcessTool, processSchema } from "./tools/process.js";
