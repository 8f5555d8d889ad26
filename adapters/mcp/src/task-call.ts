import { randomUUID } from "node:crypto";
import { type AgentToolResult, isToolProtocolError } from "@clawtools/core";
import type { TaskRecord } from "@clawtools/core/tasks";
import { runWithApprovalHandler } from "@clawtools/core/approvals";
import { type ClientChannel, runWithClient } from "@clawtools/core/client";
import { type ClientCapabilities, ProtocolError, type ServerContext } from "@modelcontextprotocol/server";
import type { TraceOfCall } from "./call-trace.js";
import { channelOf } from "./client-channel.js";
import { questionOf } from "./client-rounds.js";
import { clientApprovalHandler } from "./elicit-approval.js";
import type { TaskControl, TaskHost } from "./task-host.js";
import { declaresTasksExtension, missingTasksExtension } from "./tasks.js";
import { createTaskResult2026, RELATED_TASK_META, type TaskSupport, task2025 } from "./task-wire.js";

/** How a call runs: as a 2026-07-28 task, a 2025-11-25 task, or as an ordinary call. */
export type TaskMode = { era: "2026" } | { era: "2025"; ttlMs?: number } | undefined;

/**
 * Whether this call runs as a task: on 2026-07-28 when the tool supports tasks and the request
 * declared the extension (a tool that requires one is refused -32021 otherwise); on 2025-11-25
 * when the client asked (`params.task`) and the tool supports it.
 */
export function taskModeOf(
  ctx: ServerContext,
  support: TaskSupport | undefined,
  taskParam: unknown,
  capabilities: unknown,
  toolName: string,
): TaskMode {
  if (ctx.mcpReq.envelope) {
    const declared = declaresTasksExtension(capabilities as never);
    if (support && declared) return { era: "2026" };
    if (support === "required") throw missingTasksExtension(`The tool ${toolName}`);
    return undefined;
  }
  if (support && taskParam && typeof taskParam === "object") {
    const ttl = (taskParam as { ttl?: unknown }).ttl;
    return { era: "2025", ...(typeof ttl === "number" && ttl > 0 ? { ttlMs: ttl } : {}) };
  }
  if (support === "required")
    throw new ProtocolError(-32601, `The tool ${toolName} only runs as a task: call it with params.task`);
  return undefined;
}

/**
 * The client of a call that runs as a task: a question parks the task `input_required` with it
 * (a key of its own in the task's `inputRequests`) until `tasks/update` answers. Answers gathered
 * in the call's `input_required` rounds before the task started (`answered`) are given back first.
 * Log messages have no request left to travel on and are dropped.
 */
function taskChannel(
  control: TaskControl,
  capabilities: ClientCapabilities | undefined,
  answered: Record<string, { q: string; a: unknown }>,
): ClientChannel {
  return channelOf({
    capabilities,
    log: () => {},
    ask: async (key, request) => {
      const known = answered[key];
      if (known && known.q === questionOf(request)) return known.a;
      const id = `${key}-${randomUUID().slice(0, 8)}`;
      const answers = await control.ask({ [id]: request });
      if (!(id in answers) || answers[id] === undefined)
        throw new Error(`the task ended before the client answered ${key}`);
      return answers[id];
    },
  });
}

export interface TaskCallOptions {
  host: TaskHost;
  mode: NonNullable<TaskMode>;
  tool: string;
  scope: string;
  /** Ask approvals of the client (it can show a form). */
  ask: boolean;
  /** What the client declared (the questions its task may ask). */
  capabilities: ClientCapabilities | undefined;
  /** Answers the call's `input_required` rounds gathered before the task (2026-07-28). */
  answered?: Record<string, { q: string; a: unknown }>;
  /** Runs the tool with the task's signal. */
  run: (signal: AbortSignal) => Promise<AgentToolResult<unknown>>;
  /** The MCP result of the tool's result. */
  toResult: (result: AgentToolResult<unknown>) => Record<string, unknown>;
  /** 2025-11-25 status notifications on the caller's connection. */
  notify?: (task: TaskRecord) => void;
  /** The call's span: it gets the task's id, and the task's run a span of its own under it. */
  trace?: TraceOfCall;
}

/** Starts the call as a task and answers the CreateTaskResult of its era. */
export async function callAsTask(options: TaskCallOptions): Promise<Record<string, unknown>> {
  const task = await options.host.start(
    {
      tool: options.tool,
      scope: options.scope,
      ...(options.mode.era === "2025" && options.mode.ttlMs ? { ttlMs: options.mode.ttlMs } : {}),
      ...(options.notify ? { onStatus: options.notify } : {}),
    },
    async (control) => {
      const span = options.trace?.taskRun(options.tool, control.taskId);
      try {
        const client = taskChannel(control, options.capabilities, options.answered ?? {});
        const run = () =>
          runWithClient(client, () =>
            options.ask
              ? runWithApprovalHandler(clientApprovalHandler(client), () => options.run(control.signal))
              : options.run(control.signal),
          );
        const result = await (span ? span.run(run) : run());
        return { result: span ? span.ended(options.toResult(result)) : options.toResult(result) };
      } catch (error) {
        span?.threw(error);
        if (isToolProtocolError(error)) return { error: { code: error.code, message: error.message } };
        throw error;
      }
    },
  );
  options.trace?.note("task.id", task.taskId);
  if (options.mode.era === "2026") return createTaskResult2026(task);
  // `content: []` gets it past the SDK's 2025 tools/call result check (it refuses a bare `task`)
  return { task: task2025(task), content: [], _meta: { [RELATED_TASK_META]: { taskId: task.taskId } } };
}
