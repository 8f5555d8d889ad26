import type { TaskRecord, TaskStore } from "@clawtools/core/contracts";
import type { Db } from "./db.js";

/**
 * MCP tasks in PostgreSQL (`tasks`: one JSON text document per task), so every `serve` on the same
 * database answers for a task any of them started. `update` reads the row `FOR UPDATE` in a
 * transaction: changes from several processes are applied one after another, none lost.
 */
export class PgTaskStore implements TaskStore {
  constructor(private readonly db: Db) {}

  async create(task: TaskRecord): Promise<void> {
    await this.db.query(`INSERT INTO ${this.db.t("tasks")} (task_id, record) VALUES ($1, $2)`, [
      task.taskId,
      JSON.stringify(task),
    ]);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const rows = await this.db.query<{ record: string }>(
      `SELECT record FROM ${this.db.t("tasks")} WHERE task_id = $1`,
      [taskId],
    );
    return rows[0] ? (JSON.parse(rows[0].record) as TaskRecord) : undefined;
  }

  async update(
    taskId: string,
    change: (task: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    return this.db.tx(async (client) => {
      const { rows } = await client.query<{ record: string }>(
        `SELECT record FROM ${this.db.t("tasks")} WHERE task_id = $1 FOR UPDATE`,
        [taskId],
      );
      const task = rows[0] ? (JSON.parse(rows[0].record) as TaskRecord) : undefined;
      if (!task) return undefined;
      const next = change(task);
      if (!next) return task;
      await client.query(`UPDATE ${this.db.t("tasks")} SET record = $2 WHERE task_id = $1`, [
        taskId,
        JSON.stringify(next),
      ]);
      return next;
    });
  }

  async list(): Promise<TaskRecord[]> {
    const rows = await this.db.query<{ record: string }>(
      `SELECT record FROM ${this.db.t("tasks")} ORDER BY task_id`,
    );
    return rows.map((row) => JSON.parse(row.record) as TaskRecord);
  }

  async delete(taskId: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.db.t("tasks")} WHERE task_id = $1`, [taskId]);
  }
}
