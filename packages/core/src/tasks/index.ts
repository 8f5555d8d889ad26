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
