import path from "node:path";
import { fileTaskStore, type TaskStore } from "@clawtools/core/tasks";
import type { TaskHost } from "@clawtools/mcp/task-host";

/**
 * The task host `serve` gives its MCP server: long calls (exec, process, web_fetch,
 * sessions_spawn, …) run as MCP tasks kept under `<state dir>/tasks`, so another `serve` on the
 * same state directory answers for them; with `--store`, in PostgreSQL, so any `serve` on that
 * database does. Without either there are no tasks.
 */
export async function taskHostFor(
  set: { taskStore?: TaskStore; context: { stateDir?: string } },
  log: (line: string) => void,
): Promise<TaskHost | undefined> {
  const stateDir = set.context.stateDir;
  const store = set.taskStore ?? (stateDir ? fileTaskStore(path.join(stateDir, "tasks")) : undefined);
  if (!store) return undefined;
  const { TaskHost } = await import("@clawtools/mcp/task-host");
  return new TaskHost({ store, log });
}
