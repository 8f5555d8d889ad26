import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { TaskRecord, TaskStore } from "../contracts/task-store.js";
import { withFileLock } from "../safety/file-lock.js";
import { readJsonFile, writeJsonAtomic } from "../state/atomic-json.js";

/** Task ids the server mints (and any the store is asked for) are safe file names or unknown. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

function parseTask(value: unknown): TaskRecord {
  const task = value as Partial<TaskRecord> | null;
  if (!task || typeof task !== "object" || typeof task.taskId !== "string" || typeof task.status !== "string")
    throw new Error("not a task record");
  return task as TaskRecord;
}

/**
 * The embedded task store: one JSON file per task in `dir` (`<state dir>/tasks`), written whole
 * or not at all (`writeJsonAtomic`, flushed to disk) and changed under the cross-process file
 * lock, so several `serve` processes on one state directory share their tasks.
 */
export function fileTaskStore(dir: string): TaskStore {
  const fileOf = (taskId: string) => (SAFE_ID.test(taskId) ? path.join(dir, `${taskId}.json`) : undefined);
  const read = (file: string) => readJsonFile(file, { parse: parseTask, onCorrupt: "quarantine" });
  return {
    async create(task) {
      const file = fileOf(task.taskId);
      if (!file) throw new Error(`task id ${JSON.stringify(task.taskId)} is not a safe file name`);
      await writeJsonAtomic(file, task, { durable: true });
    },
    async get(taskId) {
      const file = fileOf(taskId);
      return file ? read(file) : undefined;
    },
    async update(taskId, change) {
      const file = fileOf(taskId);
      if (!file) return undefined;
      return withFileLock(file, async () => {
        const task = await read(file);
        if (!task) return undefined;
        const next = change(task);
        if (!next) return task;
        await writeJsonAtomic(file, next, { durable: true });
        return next;
      });
    },
    async list() {
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      const tasks = await Promise.all(
        names.filter((n) => n.endsWith(".json")).map((n) => read(path.join(dir, n)).catch(() => undefined)),
      );
      return tasks.filter((t): t is TaskRecord => t !== undefined);
    },
    async delete(taskId) {
      const file = fileOf(taskId);
      if (file) await rm(file, { force: true });
    },
  };
}
