// @clawtools/core: what a plugin author writing a tool needs, and what an app needs to assemble
// tools: the tool contract, schemas and parameters, results and errors, plugins, the registry and
// createToolset. Everything else is a subpath, one concept each (see the README): /policy,
// /catalog, /safety, /time, /state, /journal, /http, /lifecycle, /tasks, /approvals, /wrap,
// /resources, /providers, /contracts, /surface, /testing. A release test holds this entry's size.
export type {
  AgentTool,
  AgentToolResult,
  AgentToolUpdateCallback,
  AnyAgentTool,
  AudioContent,
  FsBridge,
  FsStat,
  ImageContent,
  JsonSchema,
  TextContent,
  ToolContent,
  ToolContext,
  ToolParams,
} from "./tool.js";
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
export { imageResult, type ImageResultParams, jsonResult, textResult } from "./results.js";
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
  type ClawtoolsPlugin,
  definePlugin,
  type DefinePluginInput,
  type PluginToolInput,
  type PluginToolMeta,
  type PluginToolRegistration,
  type ToolFactory,
} from "./plugin.js";
// a section plugin's opening: id/version from package.json, config checked, tools wired
export {
  type DefineSectionPluginInput,
  defineSectionPlugin,
  packageInfo,
  type SectionConfig,
} from "./plugin-section.js";
export { ConfigError, isConfigError, parseSectionConfig, readSectionConfig } from "./config.js";
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
export {
  type ResolveErrorHandler,
  type ResolveOptions,
  type ResolveResult,
  type ToolDiagnostic,
  ToolRegistry,
} from "./registry.js";
export {
  createToolset,
  type CreateToolsetOptions,
  type Toolset,
  type ToolsetPolicy,
} from "./assemble.js";
