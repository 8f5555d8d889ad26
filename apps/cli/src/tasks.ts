import { createHash } from "node:crypto";
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

/**
 * Whose tasks `tasks/list` shows a client of this serve: the agent it acts as (`--agent-id`,
 * config `agentId`), and on `--http` with a bearer token the holder of that token (a fingerprint,
 * never the token). Stable across processes: a second serve on the same store, acting as the same
 * agent with the same token, lists the tasks the first started.
 */
export function taskPrincipal(agentId: string | undefined, token: string | undefined): string {
  const agent = `agent:${agentId ?? "cli"}`;
  if (!token) return agent;
  return `${agent} token:${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;
}
