import { askApproval } from "../approvals/ask.js";
import { noteCall } from "./call-notes.js";
import {
  type ApprovalHandler,
  type BeforeToolCallEvent,
  type BeforeToolCallHook,
  byPriority,
  type ToolCallHookContext,
} from "./hooks.js";

export const HOOK_FAILED_REASON = "Tool call blocked because before_tool_call hook failed";
export const DEFAULT_BLOCK_REASON = "Tool call blocked by plugin hook";
export const APPROVAL_DENIED = "Denied by user";
export const APPROVAL_TIMED_OUT = "Approval timed out";
export const APPROVAL_CANCELLED = "Approval cancelled (run aborted)";
export const APPROVAL_UNAVAILABLE =
  "Tool call requires approval but no approval handler is configured (pass hooks.approval to createToolset)";

export type BeforeCallOutcome =
  | { blocked: false; params: Record<string, unknown> }
  | { blocked: true; reason: string };

/**
 * Runs before_tool_call hooks in priority order: params merge (last wins), the first block
 * stops the chain, the first approval request wins. A throwing hook blocks (fail closed).
 */
export async function runBeforeToolCall(
  hooks: readonly BeforeToolCallHook[] | undefined,
  event: BeforeToolCallEvent,
  ctx: ToolCallHookContext,
  approval: { handler?: ApprovalHandler; timeoutMs: number; signal?: AbortSignal },
): Promise<BeforeCallOutcome> {
  let params = event.params;
  let approvalRequest: { title?: string; description?: string; pluginId?: string } | undefined;
  for (const hook of byPriority(hooks)) {
    let result: Awaited<ReturnType<BeforeToolCallHook["handler"]>>;
    try {
      result = await hook.handler({ ...event, params }, ctx);
    } catch {
      return { blocked: true, reason: HOOK_FAILED_REASON };
    }
    if (!result) continue;
    if (result.params) params = { ...params, ...result.params };
    if (result.block) return { blocked: true, reason: result.blockReason || DEFAULT_BLOCK_REASON };
    if (result.requireApproval && !approvalRequest) {
      approvalRequest = { ...result.requireApproval, ...(hook.pluginId ? { pluginId: hook.pluginId } : {}) };
    }
  }
  if (!approvalRequest) return { blocked: false, params };
  if (!approval.handler) {
    noteCall("approval", "unavailable");
    return { blocked: true, reason: APPROVAL_UNAVAILABLE };
  }
  const decision = await askHookApproval(
    approval.handler,
    { ...approvalRequest, toolName: event.toolName, toolCallId: event.toolCallId, params },
    approval.timeoutMs,
    approval.signal,
  );
  if (decision === "allow-once" || decision === "allow-always") return { blocked: false, params };
  return { blocked: true, reason: decision };
}

const OUTCOME_REASONS = {
  deny: APPROVAL_DENIED,
  timeout: APPROVAL_TIMED_OUT,
  cancelled: APPROVAL_CANCELLED,
} as const;

/** Core's one timeout policy (`askApproval`), its outcomes in this module's words. */
async function askHookApproval(
  handler: ApprovalHandler,
  request: Parameters<ApprovalHandler>[0],
  timeoutMs: number,
  runSignal: AbortSignal | undefined,
): Promise<"allow-once" | "allow-always" | string> {
  const outcome = await askApproval(handler, request, {
    timeoutMs,
    ...(runSignal ? { signal: runSignal } : {}),
  });
  return outcome === "allow-once" || outcome === "allow-always" ? outcome : OUTCOME_REASONS[outcome];
}
