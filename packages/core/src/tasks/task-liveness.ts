import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { RunOwner } from "../contracts/run-registry.js";
import { TERMINAL_TASK_STATUSES, type TaskRecord } from "../contracts/task-store.js";
import { processAlive } from "../safety/file-lock.js";

/** How long a task's owner may go without a heartbeat before the task is failed (default 30 s). */
export const DEFAULT_TASK_LEASE_MS = 30_000;
/** How long a task is kept from its creation (default 1 hour). */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
/** A task that ended is kept at least this long, whatever its ttl (so its result can be read). */
export const TASK_KEEP_AFTER_END_MS = 60_000;

export function isTerminalTask(task: Pick<TaskRecord, "status">): boolean {
  return TERMINAL_TASK_STATUSES.includes(task.status);
}

/** This process as the owner of the tasks it runs (a new instance id per task host). */
export function newTaskOwner(): RunOwner {
  return { pid: process.pid, instance: randomUUID(), host: hostname() };
}

/**
 * Why a task that is not over has lost its owner, or undefined while the owner lives: a process of
 * this machine that is gone is lost at once; any owner (another machine, a reused pid) once its
 * heartbeat is older than `leaseMs`. The same rule the sessions' run liveness uses.
 */
export function taskLostReason(
  task: TaskRecord,
  self: RunOwner,
  now: number,
  leaseMs: number,
): string | undefined {
  if (isTerminalTask(task) || task.owner.instance === self.instance) return undefined;
  const owner = task.owner;
  if (owner.host === self.host && owner.pid !== self.pid && !processAlive(owner.pid))
    return `the process that ran it (pid ${owner.pid}) is gone`;
  const silentFor = now - task.heartbeatAt;
  if (silentFor > leaseMs)
    return `the process that ran it (pid ${owner.pid}${owner.host === self.host ? "" : ` on ${owner.host}`}) sent no heartbeat for ${Math.round(silentFor / 1000)} s`;
  return undefined;
}

/** Whether a task is past its time: ended, older than its ttl, and ended long enough ago. */
export function taskExpired(task: TaskRecord, now: number): boolean {
  return (
    isTerminalTask(task) &&
    now > task.createdAt + task.ttlMs &&
    now > task.lastUpdatedAt + TASK_KEEP_AFTER_END_MS
  );
}
