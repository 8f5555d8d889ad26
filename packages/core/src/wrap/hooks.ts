import type { AgentToolResult } from "../tool.js";

/** What a before_tool_call hook sees. `toolName` is the canonical (lowercase) name. */
export interface BeforeToolCallEvent {
  toolName: string;
  toolCallId: string;
  params: Record<string, unknown>;
}

export interface ToolCallHookContext {
  toolName: string;
  toolCallId: string;
  agentId?: string;
  sessionKey?: string;
}

export interface ApprovalRequest {
  title?: string;
  description?: string;
  toolName: string;
  toolCallId: string;
  params: Record<string, unknown>;
  /** Id of the plugin whose hook asked for approval. */
  pluginId?: string;
}

export type ApprovalDecision = "allow-once" | "allow-always" | "deny";
export type ApprovalHandler = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

export interface BeforeToolCallResult {
  /** Shallow-merged over the call's parameters. */
  params?: Record<string, unknown>;
  block?: boolean;
  blockReason?: string;
  requireApproval?: { title?: string; description?: string };
}

export interface BeforeToolCallHook {
  handler: (
    event: BeforeToolCallEvent,
    ctx: ToolCallHookContext,
  ) => BeforeToolCallResult | undefined | void | Promise<BeforeToolCallResult | undefined | void>;
  /** Higher runs first; default 0. */
  priority?: number;
  pluginId?: string;
}

export interface AfterToolCallEvent {
  toolName: string;
  toolCallId: string;
  /** The parameters the tool actually ran with (after hooks). */
  params: Record<string, unknown>;
  result: AgentToolResult<unknown>;
  isError: boolean;
  error?: string;
  durationMs: number;
}

export interface AfterToolCallHook {
  handler: (event: AfterToolCallEvent, ctx: ToolCallHookContext) => unknown;
  priority?: number;
  pluginId?: string;
}

export interface ToolResultPersistEvent {
  toolName: string;
  toolCallId: string;
  result: AgentToolResult<unknown>;
  isError: boolean;
}

/** Synchronous; may return `{ result }` to replace what is passed on. Promises are ignored. */
export interface ToolResultPersistHook {
  handler: (event: ToolResultPersistEvent) => { result?: AgentToolResult<unknown> } | undefined | void;
  priority?: number;
  pluginId?: string;
}

export interface ToolHooks {
  beforeToolCall?: BeforeToolCallHook[];
  afterToolCall?: AfterToolCallHook[];
  toolResultPersist?: ToolResultPersistHook[];
  /** Asked when a before_tool_call hook requires approval; absent ⇒ such calls are blocked. */
  approval?: ApprovalHandler;
  /** Default 120 s; a timeout denies. */
  approvalTimeoutMs?: number;
}

export function byPriority<T extends { priority?: number }>(hooks: readonly T[] | undefined): T[] {
  return [...(hooks ?? [])].sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
}
