import type { TaskRecord } from "@clawtools/core/tasks";

/** The tasks extension's id (SEP-2663), under `capabilities.extensions` on 2026-07-28. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
/** JSON-RPC: the client did not declare a capability the request needs (SEP-2575). */
export const MISSING_CLIENT_CAPABILITY = -32021;
/** `_meta` key tying a 2025-era result or notification to its task. */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

/** How a tool may run as a task (2025-11-25 `execution.taskSupport`). */
export type TaskSupport = "optional" | "required";

/** A tool's task support, from its own `taskSupport` field (tools without one never run as tasks). */
export function taskSupportOf(tool: object): TaskSupport | undefined {
  const value = (tool as { taskSupport?: unknown }).taskSupport;
  return value === "optional" || value === "required" ? value : undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** What both revisions' task envelopes share: identity, status and times. */
function taskBase(task: TaskRecord) {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
  };
}

/** The 2026-07-28 task envelope (SEP-2663): flat, `ttlMs` / `pollIntervalMs`. */
function task2026(task: TaskRecord) {
  return { ...taskBase(task), ttlMs: task.ttlMs, pollIntervalMs: task.pollIntervalMs };
}

/** `tools/call`'s answer when it started a task (2026-07-28 CreateTaskResult). */
export function createTaskResult2026(task: TaskRecord) {
  return { resultType: "task" as const, ...task2026(task) };
}

/** `tasks/get` on 2026-07-28 (DetailedTask): the result, error or input requests inlined. */
export function detailedTask2026(task: TaskRecord) {
  return {
    ...task2026(task),
    ...(task.status === "completed" && task.result ? { result: task.result } : {}),
    ...(task.status === "failed" && task.error ? { error: task.error } : {}),
    ...(task.status === "input_required" && task.inputRequests ? { inputRequests: task.inputRequests } : {}),
  };
}

/** The 2025-11-25 Task: `ttl` / `pollInterval`, no result inlined. */
export function task2025(task: TaskRecord) {
  return { ...taskBase(task), ttl: task.ttlMs, pollInterval: task.pollIntervalMs };
}

/**
 * A params "schema" in the Standard Schema shape the SDK's custom-method handlers take: the
 * object as sent, once `check` passes (it returns the problem, or undefined).
 */
export function paramsSchema<T>(check: (value: Record<string, unknown>) => string | undefined) {
  return {
    "~standard": {
      version: 1 as const,
      vendor: "clawtools",
      // for type inference only (Standard Schema's `types`)
      types: undefined as unknown as { input: unknown; output: T },
      validate(value: unknown) {
        if (!value || typeof value !== "object" || Array.isArray(value))
          return { issues: [{ message: "params must be an object" }] };
        const problem = check(value as Record<string, unknown>);
        return problem ? { issues: [{ message: problem }] } : { value: value as T };
      },
    },
  };
}

/** `{taskId}` (and anything else) with a string taskId. */
export const taskIdParams = paramsSchema<{ taskId: string; inputResponses?: unknown }>((v) =>
  typeof v.taskId === "string" ? undefined : "taskId must be a string",
);
