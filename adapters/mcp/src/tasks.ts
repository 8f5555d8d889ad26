import type { TaskRecord } from "@clawtools/core/tasks";
import { isTerminalTask } from "@clawtools/core/tasks";
import {
  type ClientCapabilities,
  ProtocolError,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { TaskHost } from "./task-host.js";
import {
  detailedTask2026,
  MISSING_CLIENT_CAPABILITY,
  RELATED_TASK_META,
  TASKS_EXTENSION,
  task2025,
  paramsSchema,
  taskIdParams,
} from "./task-wire.js";

const anyParams = paramsSchema<Record<string, unknown>>(() => undefined);

/** Whether a 2026-07-28 request declared the tasks extension (per request: its own `_meta`). */
export function declaresTasksExtension(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return !!extensions && typeof extensions === "object" && extensions[TASKS_EXTENSION] !== undefined;
}

/** -32021 naming the extension the request needed (SEP-2575's Missing Required Client Capability). */
export function missingTasksExtension(what: string): ProtocolError {
  return new ProtocolError(
    MISSING_CLIENT_CAPABILITY,
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

const unknownTask = (taskId: string) =>
  new ProtocolError(-32602, `Unknown task: ${taskId} (never created here, or dropped after its ttl)`, {
    taskId,
  });

export interface TasksHandlersOptions {
  /** The checks every request passes first (initialised, roots settled). */
  before: (ctx: ServerContext) => Promise<void>;
  /** The client's capabilities for this request. */
  capabilities: (ctx: ServerContext) => ClientCapabilities | undefined;
  /** Which client's tasks `tasks/list` shows. */
  scope: (ctx: ServerContext) => string;
}

/**
 * The task methods on `server`, answered from `host`'s store (so for tasks any process started):
 * on 2026-07-28 the tasks extension's `tasks/get` (result, error or input requests inlined),
 * `tasks/update` and `tasks/cancel` (empty acks), refused with -32021 to a request that did not
 * declare the extension; on 2025-11-25 `tasks/get`, `tasks/result` (waits for the end),
 * `tasks/list` and `tasks/cancel`.
 */
export function serveTasks(server: Server, host: TaskHost, options: TasksHandlersOptions): void {
  const open = async (ctx: ServerContext, method: string, taskId: string): Promise<TaskRecord> => {
    await options.before(ctx);
    if (ctx.mcpReq.envelope && !declaresTasksExtension(options.capabilities(ctx)))
      throw missingTasksExtension(method);
    const task = await host.get(taskId);
    if (!task) throw unknownTask(taskId);
    return task;
  };

  server.setRequestHandler("tasks/get", { params: taskIdParams }, async (params, ctx) => {
    const task = await open(ctx, "tasks/get", params.taskId);
    return ctx.mcpReq.envelope ? detailedTask2026(task) : task2025(task);
  });

  server.setRequestHandler("tasks/cancel", { params: taskIdParams }, async (params, ctx) => {
    const task = await open(ctx, "tasks/cancel", params.taskId);
    if (ctx.mcpReq.envelope) {
      // an ack either way: cancelling a task that is over changes nothing (SEP-2663)
      await host.cancel(task.taskId);
      return {};
    }
    if (isTerminalTask(task))
      throw new ProtocolError(
        -32602,
        `Task ${task.taskId} is already ${task.status}: it cannot be cancelled`,
      );
    return task2025((await host.cancel(task.taskId)) ?? task);
  });

  server.setRequestHandler("tasks/update", { params: taskIdParams }, async (params, ctx) => {
    const task = await open(ctx, "tasks/update", params.taskId);
    // the SDK lifts inputResponses off the params (as for a retried call) onto the context
    const responses =
      params.inputResponses ?? (ctx.mcpReq as { inputResponses?: unknown }).inputResponses ?? {};
    if (!responses || typeof responses !== "object" || Array.isArray(responses))
      throw new ProtocolError(
        -32602,
        "tasks/update: inputResponses must be an object of answers by request id",
      );
    await host.answer(task.taskId, responses as Record<string, unknown>);
    return {};
  });

  // 2025-11-25 only: the SDK answers -32601 for them on 2026-07-28, as SEP-2663 asks
  server.setRequestHandler("tasks/result", { params: taskIdParams }, async (params, ctx) => {
    await open(ctx, "tasks/result", params.taskId);
    const task = await host.waitEnded(params.taskId, ctx.mcpReq.signal);
    if (!task) throw unknownTask(params.taskId);
    const related = { [RELATED_TASK_META]: { taskId: task.taskId } };
    if (task.status === "completed" && task.result)
      return { ...task.result, _meta: { ...(task.result._meta as object | undefined), ...related } };
    if (task.status === "failed" && task.error)
      throw new ProtocolError(task.error.code, task.error.message, task.error.data);
    throw new ProtocolError(-32603, `Task ${task.taskId} was ${task.status}`, { taskId: task.taskId });
  });

  server.setRequestHandler("tasks/list", { params: anyParams }, async (_params, ctx) => {
    await options.before(ctx);
    const tasks = await host.list(options.scope(ctx));
    return { tasks: tasks.sort((a, b) => a.createdAt - b.createdAt).map(task2025) };
  });
}
