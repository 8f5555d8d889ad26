// MCP tasks through the built CLI, as a host meets them (the MCP SDK client, 2025-11-25 tasks):
// exec runs as a task, followed with tasks/get, tasks/list, tasks/result and status
// notifications; tasks/cancel ends the command's process; a second `serve` on the same state
// directory answers for a task the first started, and for one whose serve was killed (kill -9):
// failed, with the reason, never "working" forever. tasks/list shows the tasks of the agent serve
// acts as, whichever serve started them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  TaskStatusNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "./support/cli.js";
import { type HttpServe, serveHttp } from "./support/serve.js";

async function connect(url: string) {
  const client = new Client({ name: "e2e-tasks", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("clawtools serve --http: tool calls as MCP tasks", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-tasks-"));
  const args = ["--workspace", dir, "--state-dir", path.join(dir, "state")];
  let first: HttpServe;
  let second: HttpServe;
  /** Acts as another agent (`--agent-id`) on the same state directory. */
  let other: HttpServe;
  const leftover: number[] = [];

  beforeAll(async () => {
    ensureBuilt();
    [first, second, other] = await Promise.all([
      serveHttp(args, { cwd: dir }),
      serveHttp(args, { cwd: dir }),
      serveHttp([...args, "--agent-id", "someone-else"], { cwd: dir }),
    ]);
  }, 400_000);
  afterAll(() => {
    first?.child.kill("SIGTERM");
    second?.child.kill("SIGTERM");
    other?.child.kill("SIGTERM");
    for (const pid of leftover) if (alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  /** exec as a task: `tools/call` with `params.task`, answered with the created task. */
  const startExec = (client: Client, command: string) =>
    client.request(
      { method: "tools/call", params: { name: "exec", arguments: { command }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
  const getTask = (client: Client, taskId: string) =>
    client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema);

  it("exec runs as a task: tasks/get, tasks/list, tasks/result and status notifications", async () => {
    const client = await connect(first.url);
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const listed = await client.listTools();
    expect(listed.tools.find((t) => t.name === "exec")?.execution).toEqual({ taskSupport: "optional" });
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      statuses.push(n.params.status);
    });

    const { task } = await startExec(client, "sleep 1; echo made-by-a-task");
    expect(task.status).toBe("working");
    expect(task.ttl).toBe(600_000);
    expect((await getTask(client, task.taskId)).status).toBe("working");
    const { tasks } = await client.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
    expect(tasks.map((t) => t.taskId)).toContain(task.taskId);

    const result = await client.request(
      { method: "tasks/result", params: { taskId: task.taskId } },
      CallToolResultSchema,
    );
    expect(JSON.stringify(result.content)).toContain("made-by-a-task");
    expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId: task.taskId });
    expect((await getTask(client, task.taskId)).status).toBe("completed");
    expect(
      await until(
        () => statuses,
        (s) => s.includes("completed"),
      ),
    ).toContain("completed");
    await client.close();
  }, 60_000);

  it("tasks/cancel aborts the call: the command's process ends and the task is cancelled", async () => {
    const client = await connect(first.url);
    const pidFile = path.join(dir, "cancel.pid");
    const { task } = await startExec(client, `echo $$ > ${pidFile}; exec sleep 60`);
    const pid = await until(
      () => Number(readFileSync(pidFile, { encoding: "utf8", flag: "a+" }).trim()),
      (p) => p > 0,
    );
    leftover.push(pid);
    expect(alive(pid)).toBe(true);
    const cancelled = await client.request(
      { method: "tasks/cancel", params: { taskId: task.taskId } },
      CancelTaskResultSchema,
    );
    expect(cancelled.status).toBe("cancelled");
    expect(
      await until(
        () => alive(pid),
        (a) => !a,
      ),
    ).toBe(false);
    expect(await getTask(client, task.taskId)).toMatchObject({
      status: "cancelled",
      statusMessage: "Cancelled by the client",
    });
    await client.close();
  }, 60_000);

  it("a second serve on the same state dir answers for a task the first runs, then for one whose serve was killed", async () => {
    const a = await connect(first.url);
    const b = await connect(second.url);
    const done = await startExec(a, "sleep 1; echo answered-elsewhere");
    const result = await b.request(
      { method: "tasks/result", params: { taskId: done.task.taskId } },
      CallToolResultSchema,
    );
    expect(JSON.stringify(result.content)).toContain("answered-elsewhere");
    // tasks/list is the principal's (the agent serve acts as), not the session's: the other serve
    // lists the task the first started; a serve acting as another agent does not
    const listed = await b.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
    expect(listed.tasks.find((t) => t.taskId === done.task.taskId)?.status).toBe("completed");
    const stranger = await connect(other.url);
    const theirs = await stranger.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
    expect(theirs.tasks.map((t) => t.taskId)).not.toContain(done.task.taskId);
    await stranger.close();

    const pidFile = path.join(dir, "orphan.pid");
    const { task } = await startExec(a, `echo $$ > ${pidFile}; exec sleep 60`);
    const pid = await until(
      () => Number(readFileSync(pidFile, { encoding: "utf8", flag: "a+" }).trim()),
      (p) => p > 0,
    );
    leftover.push(pid);
    expect((await getTask(b, task.taskId)).status).toBe("working");
    const firstPid = first.child.pid!;
    first.child.kill("SIGKILL");
    await until(
      () => alive(firstPid),
      (x) => !x,
    );
    const after = await getTask(b, task.taskId);
    expect(after).toMatchObject({
      status: "failed",
      statusMessage: `Task failed: the process that ran it (pid ${firstPid}) is gone`,
    });
    await expect(
      b.request({ method: "tasks/result", params: { taskId: task.taskId } }, CallToolResultSchema),
    ).rejects.toThrow(`the process that ran it (pid ${firstPid}) is gone`);
    await b.close();
  }, 60_000);
});
