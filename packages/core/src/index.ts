// The public surface of @clawtools/core, by name: what apps and plugins use. Internals (policy
// compilation, hook dispatch, abort plumbing) stay inside the package.
export {
  createToolset,
  type CreateToolsetOptions,
  type Toolset,
  type ToolsetPolicy,
} from "./assemble.js";
export {
  CORE_SECTIONS,
  CORE_TOOL_DEFINITIONS,
  CORE_TOOL_GROUPS,
  type CoreToolDefinition,
  getCoreSections,
  getCoreToolCatalog,
  getCoreToolDefinition,
  isKnownCoreToolId,
  resolveCoreToolProfilePolicy,
  SECTION_IDS,
  type SectionId,
  TOOL_PROFILE_IDS,
  type ToolMeta,
  type ToolPolicy,
  type ToolProfileId,
  type ToolSection,
} from "./catalog.js";
export {
  ConfigError,
  isConfigError,
  parseSectionConfig,
  readSectionConfig,
} from "./config.js";
// the error family every clawtools error class extends: tell them apart by `code`
export { ClawtoolsError, isClawtoolsError } from "./clawtools-error.js";
export {
  isToolAuthorizationError,
  isToolInputError,
  isToolProtocolError,
  isToolUnavailableError,
  OWNER_ONLY_TOOL_ERROR,
  ToolAuthorizationError,
  ToolInputError,
  ToolProtocolError,
  ToolUnavailableError,
} from "./errors.js";
export {
  detectSuspiciousPatterns,
  EXTERNAL_CONTENT_WARNING,
  type ExternalContentSource,
  sanitizeExternalText,
  sanitizeMarkers,
  wrapExternalContent,
  type WrapExternalContentOptions,
} from "./external-content.js";
export { compileGlob, type GlobMatcher, type GlobOptions } from "./glob.js";
export {
  type DisposeFn,
  Disposer,
} from "./lifecycle/disposer.js";
export {
  processGroupReaperPid,
  startProcessGroupReaper,
  superviseProcessGroup,
  supervisedProcessGroups,
} from "./lifecycle/group-reaper.js";
export { type SupervisedChild, spawnSupervised } from "./lifecycle/supervised-spawn.js";
// one HTTP client for configured endpoints, and the one retry with back-off
export * from "./http/index.js";
// time: every timer goes through a Clock, so tests drive it with FakeClock (@clawtools/core/testing)
export {
  backgroundClock,
  type Clock,
  type DelayOptions,
  delay,
  isTimeoutError,
  MAX_TIMER_MS,
  systemClock,
  TimeoutError,
  withTimeout,
  type WithTimeoutOptions,
} from "./time/index.js";
export {
  type NumberParamOptions,
  readNumberParam,
  readParamRaw,
  readStringArrayParam,
  readStringOrNumberParam,
  readStringParam,
  type StringArrayParamOptions,
  type StringParamOptions,
  type ToolArgs,
} from "./params.js";
export {
  type ClawtoolsPlugin,
  definePlugin,
  type DefinePluginInput,
  type PluginToolInput,
  type PluginToolMeta,
  type PluginToolRegistration,
  type ToolFactory,
} from "./plugin.js";
// resources a plugin serves beside its tools (MCP resources), and the content blocks that link them
export * from "./resources/index.js";
// what a plugin offers an app beside its tools, declared by key (no guessing at members)
export {
  capabilityOf,
  type PluginCapability,
  pluginCapability,
  type ProvidedCapability,
  provide,
  SESSION_SERVICE,
  type SessionServiceHandle,
} from "./plugin-capability.js";
// a section plugin's opening: id/version from package.json, config checked, tools wired
export {
  type DefineSectionPluginInput,
  defineSectionPlugin,
  packageInfo,
  type SectionConfig,
} from "./plugin-section.js";
export {
  expandToolGroups,
  type PolicyToolMeta,
} from "./policy/groups.js";
export {
  compileToolPolicy,
  filterToolsByPolicy,
  isToolAllowedByPolicies,
  isToolAllowedByPolicy,
  mergeAlsoAllow,
  type ToolPolicyMatcher,
} from "./policy/match.js";
export {
  normalizeToolList,
  normalizeToolName,
  TOOL_NAME_ALIASES,
} from "./policy/normalize.js";
export {
  applyOwnerOnlyToolPolicy,
  guardOwnerOnlyTool,
  isOwnerOnlyTool,
  OWNER_ONLY_TOOL_NAMES,
} from "./policy/owner-only.js";
export {
  applyToolPolicyPipeline,
  type ApplyToolPolicyPipelineParams,
  resetPolicyWarnings,
  type ToolPolicyPipelineStep,
} from "./policy/pipeline.js";
export {
  DEFAULT_SANDBOX_TOOL_POLICY,
  resolveSandboxToolPolicy,
} from "./policy/sandbox.js";
export {
  resolveSubagentToolPolicy,
  SUBAGENT_TOOL_DENY_ALWAYS,
  SUBAGENT_TOOL_DENY_LEAF,
  type SubagentPolicyInput,
} from "./policy/subagent.js";
export {
  type AnthropicTool,
  CLAUDE_CODE_TOOL_NAMES,
  cleanSchemaForGemini,
  extractToolSchemas,
  fromClaudeCodeToolName,
  GEMINI_UNSUPPORTED_KEYWORDS,
  type GeminiTool,
  isAnthropicOAuthKey,
  isGeminiProvider,
  type NormalizeOptions,
  normalizeToolParameters,
  type ObjectJsonSchema,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  PROVIDER_IDS,
  type ProviderId,
  resolveStrict,
  strictLosses,
  type StrictMode,
  toAnthropicToolResult,
  toAnthropicTools,
  toClaudeCodeToolName,
  toGeminiFunctionResponse,
  toGeminiTools,
  toolInputSchema,
  toOpenAIChatToolMessages,
  toOpenAIChatTools,
  toOpenAIResponsesOutput,
  toOpenAIResponsesTools,
  toProviderTools,
  toStrictSchema,
} from "./providers/index.js";
export {
  type ResolveErrorHandler,
  type ResolveOptions,
  type ResolveResult,
  type ToolDiagnostic,
  ToolRegistry,
} from "./registry.js";
export {
  imageResult,
  type ImageResultParams,
  jsonResult,
  textResult,
} from "./results.js";
export {
  checkToolSchema,
  optionalStringEnum,
  type SchemaIssue,
  type Static,
  stringEnum,
  type StringEnumOptions,
  type TObject,
  type TSchema,
  Type,
} from "./schema.js";
// state files: whole-or-nothing JSON writes, reads that fail closed on a torn file
export {
  type OnCorrupt,
  type ReadJsonOptions,
  readJsonFile,
  type WriteFileAtomicallyOptions,
  type WriteJsonOptions,
  writeFileAtomically,
  writeJsonAtomic,
} from "./state/index.js";
// MCP tasks: the store contract, its embedded file default, and when a task's owner is gone
export {
  TERMINAL_TASK_STATUSES,
  type TaskError,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from "./contracts/task-store.js";
export * from "./tasks/index.js";
export {
  resolveStateDir,
  type ResolveStateDirOptions,
} from "./state-dir.js";
export type {
  AgentTool,
  AgentToolResult,
  AgentToolUpdateCallback,
  AnyAgentTool,
  FsBridge,
  FsStat,
  AudioContent,
  ImageContent,
  JsonSchema,
  TextContent,
  ToolContent,
  ToolContext,
  ToolParams,
} from "./tool.js";
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  truncateHead,
  truncateLine,
  truncateTail,
  type TruncationOptions,
  type TruncationResult,
} from "./truncate.js";
export {
  coerceToSchema,
  parseToolArguments,
  schemaIssues,
  validateToolArguments,
} from "./validate.js";
export * from "./wrap/index.js";
export {
  APPROVAL_CANCELLED,
  APPROVAL_DENIED,
  APPROVAL_TIMED_OUT,
  APPROVAL_UNAVAILABLE,
  DEFAULT_BLOCK_REASON,
  HOOK_FAILED_REASON,
} from "./wrap/before-call.js";
export {
  type ToolErrorPayload,
  toolErrorResult,
} from "./wrap/error-result.js";
export * from "./approvals/index.js";
export type {
  AfterToolCallEvent,
  AfterToolCallHook,
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  BeforeToolCallEvent,
  BeforeToolCallHook,
  BeforeToolCallResult,
  ToolCallHookContext,
  ToolHooks,
  ToolResultPersistEvent,
  ToolResultPersistHook,
} from "./wrap/hooks.js";
export {
  type LoopDetectionConfig,
  LoopDetector,
  type LoopDetectorKind,
  type LoopVerdict,
} from "./wrap/loop-detection.js";
export {
  wrapTool,
  type WrapToolOptions,
} from "./wrap/wrap-tool.js";
export {
  heldWriteLocks,
  isInsideRoot,
  listDirInWorkspace,
  mkdirInWorkspace,
  type OpenInWorkspaceOptions,
  openInWorkspace,
  quotePath,
  removeInWorkspace,
  renameInWorkspace,
  resolveInWorkspace,
  STALE_TEMP_MS,
  statInWorkspace,
  TEMP_FILE_PATTERN,
  type WorkspaceDirEntry,
  type WorkspaceHandle,
  type WorkspacePathOptions,
  type WorkspaceStat,
  type WriteAtomicOptions,
  withWriteLock,
  withWriteLocks,
  writeFileAtomic,
} from "./safety/index.js";
// the cross-process lock beside a file (state shared by several processes on one state directory)
export {
  acquireFileLock,
  FILE_LOCK_STALE_MS,
  type FileLockOptions,
  type HeldFileLock,
  processAlive,
  withFileLock,
} from "./safety/file-lock.js";
export { isCredentialUrl, maskCredentialUrls, secretsInDocument } from "./safety/credential-url.js";
// the one redaction path: secrets the server knows never reach a result, an error, a log
export {
  hasSecrets,
  MIN_SECRET_LENGTH,
  REDACTED_MARKER,
  redactError,
  redactSecrets,
  redactValue,
  registerEnvSecrets,
  registerSecret,
  registerSecrets,
} from "./safety/redact.js";
export { redactWrites } from "./safety/redact-stream.js";
// the environment a child process gets: OpenClaw's host policy (exec, ACP agents, any runner)
export {
  BLOCKED_ENV_KEYS,
  BLOCKED_ENV_PREFIXES,
  checkCallEnv,
  isBlockedEnvKey,
  isBlockedInheritedEnvKey,
  PATH_FORBIDDEN,
  sanitizeEnv,
} from "./safety/env/env.js";
export { isWithheldEnvKey, withheldEnvKeys, withholdEnv } from "./safety/env/withheld-env.js";
export {
  BLOCKED_HOST,
  BLOCKED_RESOLVED,
  BODY_HEADERS,
  blockedReason,
  CROSS_ORIGIN_SAFE_HEADERS,
  checkHostWithoutDns,
  checkUrl,
  createPinnedLookup,
  embeddedIpv4,
  FetchTimeoutError,
  followRedirect,
  type GuardedFetchOptions,
  type GuardedResponse,
  guardedFetch,
  type IpPolicy,
  isFetchTimeoutError,
  isLegacyIpLike,
  isSsrfBlockedError,
  type Lookup,
  type ParsedIp,
  parseIpLiteral,
  policyKey,
  type RedirectRequest,
  type ResolvedAddress,
  resolveCheckedName,
  resolvePinned,
  SsrfBlockedError,
  type SsrfPolicy,
  systemLookup,
  type UrlPolicy,
} from "./safety/url/index.js";
export * from "./journal/index.js";
export { BLOCKED_HEADER, EgressProxy, type EgressProxyOptions } from "./safety/url/egress-proxy.js";
