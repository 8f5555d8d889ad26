// @clawtools/core/wrap: the per-call pipeline every assembled tool runs through (validation,
// before_tool_call hooks, abort, execute, the error result, after_tool_call), for a host that
// wraps tools itself or passes hooks to createToolset.
export { coerceToSchema, parseToolArguments, schemaIssues, validateToolArguments } from "../validate.js";
export { isAbortError } from "./abort.js";
export { type CallNotes, noteCall, runWithCallNotes } from "./call-notes.js";
export {
  APPROVAL_CANCELLED,
  APPROVAL_DENIED,
  APPROVAL_TIMED_OUT,
  APPROVAL_UNAVAILABLE,
  DEFAULT_BLOCK_REASON,
  HOOK_FAILED_REASON,
} from "./before-call.js";
export { type ToolErrorPayload, toolErrorResult } from "./error-result.js";
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
} from "./hooks.js";
export {
  type LoopDetectionConfig,
  LoopDetector,
  type LoopDetectorKind,
  type LoopVerdict,
} from "./loop-detection.js";
export { type WrapToolOptions, wrapTool } from "./wrap-tool.js";
