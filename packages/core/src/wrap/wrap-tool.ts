import { isToolProtocolError, OWNER_ONLY_TOOL_ERROR, ToolAuthorizationError } from "../errors.js";
import { isOwnerOnlyTool } from "../policy/owner-only.js";
import { normalizeToolName } from "../policy/normalize.js";
import { redactValue } from "../safety/redact.js";
import type { AgentToolResult, AnyAgentTool } from "../tool.js";
import { validateToolArguments } from "../validate.js";
import { abortError, combineSignals, isAbortError } from "./abort.js";
import { runBeforeToolCall } from "./before-call.js";
import { noteCall } from "./call-notes.js";
import { coerceToolResult, errorMessage, toolErrorResult } from "./error-result.js";
import { byPriority, type ToolCallHookContext, type ToolHooks } from "./hooks.js";
import type { LoopDetector } from "./loop-detection.js";

export interface WrapToolOptions {
  hooks?: ToolHooks;
  /** The run's signal: aborting it aborts every call in flight. */
  signal?: AbortSignal;
  senderIsOwner?: boolean;
  agentId?: string;
  sessionKey?: string;
  /** Where hook warnings go (a persist hook returning a Promise, an observer that threw). */
  warn?: (message: string) => void;
  /** Shared by every tool of a run: loop warnings go to `warn`, critical loops block the call. */
  loopDetection?: LoopDetector;
}

const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** The pipeline refused the call (owner-only, a hook's block, an approval not given). */
function noteRefusal(reason: string): void {
  noteCall("policy", "deny");
  noteCall("policy.reason", reason);
}

/**
 * Wraps a tool in the per-call pipeline: abort check → owner-only → validation → loop
 * detection → before_tool_call hooks (block / approval) → execute → result coercion →
 * tool_result_persist → after_tool_call observers. Failures come back as
 * `{status:"error", tool, error}` results with `isError: true`; only aborts throw.
 */
export function wrapTool<T extends AnyAgentTool>(tool: T, options: WrapToolOptions = {}): T {
  const toolName = normalizeToolName(tool.name);
  const hooks = options.hooks ?? {};
  const warn = options.warn ?? (() => {});

  const finish = (
    toolCallId: string,
    params: Record<string, unknown>,
    started: number,
    raw: AgentToolResult<unknown>,
    error?: string,
  ): AgentToolResult<unknown> => {
    let result = raw;
    const isError = result.isError === true;
    options.loopDetection?.recordOutcome(toolCallId, { content: raw.content, isError });
    for (const hook of byPriority(hooks.toolResultPersist)) {
      try {
        const out = hook.handler({ toolName, toolCallId, result, isError });
        if (out && typeof (out as Promise<unknown>).then === "function") {
          warn(
            `tool_result_persist hook${hook.pluginId ? ` of ${hook.pluginId}` : ""} returned a Promise; ignored (it must be synchronous)`,
          );
        } else if (out?.result) {
          result = out.result;
        }
      } catch (e) {
        warn(`tool_result_persist hook failed: ${errorMessage(e)}`);
      }
    }
    const ctx: ToolCallHookContext = hookContext(toolCallId);
    const event = {
      toolName,
      toolCallId,
      params,
      result,
      isError,
      durationMs: Date.now() - started,
      ...(error ? { error } : {}),
    };
    for (const hook of byPriority(hooks.afterToolCall)) {
      // Observers run detached: neither a throw nor a rejection reaches the call.
      try {
        Promise.resolve(hook.handler(event, ctx)).catch((e) =>
          warn(`after_tool_call hook failed: ${errorMessage(e)}`),
        );
      } catch (e) {
        warn(`after_tool_call hook failed: ${errorMessage(e)}`);
      }
    }
    return result;
  };

  const hookContext = (toolCallId: string): ToolCallHookContext => ({
    toolName,
    toolCallId,
    ...(options.agentId ? { agentId: options.agentId } : {}),
    ...(options.sessionKey ? { sessionKey: options.sessionKey } : {}),
  });

  const execute = async (
    toolCallId: string,
    rawParams: unknown,
    callSignal?: AbortSignal,
    onUpdate?: Parameters<AnyAgentTool["execute"]>[3],
  ): Promise<AgentToolResult<unknown>> => {
    const started = Date.now();
    const signal = combineSignals(callSignal, options.signal);
    if (signal?.aborted) throw abortError();
    let params: Record<string, unknown> = {};
    const fail = (error: unknown) => {
      noteCall("error.class", error instanceof Error ? error.name : typeof error);
      return finish(toolCallId, params, started, toolErrorResult(toolName, error), errorMessage(error));
    };

    if (isOwnerOnlyTool(tool) && options.senderIsOwner !== true) {
      noteRefusal("owner-only tool and the sender is not the owner");
      return fail(new ToolAuthorizationError(OWNER_ONLY_TOOL_ERROR));
    }
    try {
      params = validateToolArguments(tool, rawParams);
    } catch (error) {
      return fail(error);
    }
    const verdict = options.loopDetection?.observe(toolName, params, toolCallId);
    if (verdict?.stuck && verdict.level === "critical") return fail(new Error(verdict.message));
    if (verdict?.stuck && options.loopDetection?.shouldWarn(verdict, toolName)) warn(verdict.message);
    if (hooks.beforeToolCall?.length) {
      const outcome = await runBeforeToolCall(
        hooks.beforeToolCall,
        { toolName, toolCallId, params },
        hookContext(toolCallId),
        {
          handler: hooks.approval,
          timeoutMs: hooks.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
          signal,
        },
      );
      if (signal?.aborted) throw abortError();
      if (outcome.blocked) {
        noteRefusal(outcome.reason);
        return fail(new Error(outcome.reason));
      }
      if (outcome.params !== params) {
        try {
          params = validateToolArguments(tool, outcome.params);
        } catch (error) {
          return fail(error);
        }
      }
    }
    try {
      // partial results are results too: the registered secrets never reach them
      const update =
        onUpdate && ((partial: Parameters<typeof onUpdate>[0]) => onUpdate(redactValue(partial)));
      const raw = await tool.execute(toolCallId, params, signal, update);
      return finish(toolCallId, params, started, coerceToolResult(raw));
    } catch (error) {
      if (isAbortError(error) || signal?.aborted) throw abortError();
      // not the tool's own failure: the host answers it as a protocol error
      if (isToolProtocolError(error)) throw error;
      return fail(error);
    }
  };

  return { ...tool, execute } as T;
}
