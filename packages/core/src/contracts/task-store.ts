import type { RunOwner } from "./run-registry.js";

/** Where an MCP task stands (the tasks extension's statuses). The last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

/** A JSON-RPC error: how a task that failed (not a tool error: those complete) says why. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A long tool call run as a task. Times are epoch milliseconds. Everything in it is JSON, so any
 * store (files, PostgreSQL) keeps it as one document.
 */
export interface TaskRecord {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  /** How long the task is kept after it was created (and at least a minute after it ended). */
  ttlMs: number;
  /** How often the client is told to poll. */
  pollIntervalMs: number;
  /** Who may see it: the client (session) that started it. */
  scope: string;
  /** The tool it runs. */
  tool: string;
  /** The process running it; the process's heartbeat says it is still alive. */
  owner: RunOwner;
  heartbeatAt: number;
  /** The tool's result (an MCP CallToolResult) once completed. */
  result?: Record<string, unknown>;
  /** Why it failed (status failed). */
  error?: TaskError;
  /** What the task waits for while input_required: requests keyed by an opaque id. */
  inputRequests?: Record<string, unknown>;
  /** Answers delivered (by any process) that the owner has not taken yet. */
  inputResponses?: Record<string, unknown>;
  /** A cancel asked of a task another process runs: the owner aborts it on its next heartbeat. */
  cancelRequested?: boolean;
}

/**
 * Where tasks live, so any process on the same store answers for a task another one started.
 * Implementations: the files under the state directory (`fileTaskStore` in core) and PostgreSQL.
 */
export interface TaskStore {
  /** Stores a new task; resolves once it is durable (a `get` from any process finds it). */
  create(task: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Read-modify-write of one task, exclusive across processes: `change` gets the stored record and
   * returns the new one, or undefined to leave it. Resolves with the record stored afterwards
   * (undefined when there is no such task).
   */
  update(
    taskId: string,
    change: (task: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined>;
  /** Every stored task (for listings and the sweep of expired ones). */
  list(): Promise<TaskRecord[]>;
  delete(taskId: string): Promise<void>;
  close?(): Promise<void>;
}
