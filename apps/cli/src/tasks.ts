import path from "node:path";
import { fileTaskStore } from "@clawtools/core";
import type { TaskHost } from "@clawtools/mcp/task-host";

/**
 * The task host `serve` gives its MCP server: long calls (exec, process, web_fetch,
 * sessions_spawn, …) run as MCP tasks kept under `<state dir>/tasks`, so another `serve` on the
 * same state directory answers for them. Without a state directory there are no tasks.
 */
export async function taskHostFor(
  stateDir: string | undefined,
  log: (line: string) => void,
): Promise<TaskHost | undefined> {
  if (!stateDir) return undefined;
  const { TaskHost } = await import("@clawtools/mcp/task-host");
  return new TaskHost({ store: fileTaskStore(path.join(stateDir, "tasks")), log });
}
