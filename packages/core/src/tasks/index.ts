// @clawtools/core/tasks: MCP tasks, the store contract, its embedded file default, and when a
// task's owner is gone.
export { fileTaskStore } from "./file-task-store.js";
export {
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_TTL_MS,
  isTerminalTask,
  newTaskOwner,
  TASK_KEEP_AFTER_END_MS,
  taskExpired,
  taskLostReason,
} from "./task-liveness.js";
export {
  TERMINAL_TASK_STATUSES,
  type TaskError,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from "../contracts/task-store.js";
