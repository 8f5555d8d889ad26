// MCP tasks kept in PostgreSQL (`serve --store`): two serves with state directories of their own
// share tasks through the database alone; a task whose serve was killed (kill -9) is answered
// failed, with the reason, by the other; tasks/list on either shows the tasks of the agent both act as.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Cluster,
  HAVE_POSTGRES,
  SKIP_REASON,
  startCluster,
} from "../../../backends/store-postgres/test/cluster.js";
import { ensureBuilt } from "./support/cli.js";
import { type HttpServe, serveHttp } from "./support/serve.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(probe: () => T, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!HAVE_POSTGRES)(
  HAVE_POSTGRES
    ? "serve --store postgres://…: MCP tasks"
    : `serve --store: MCP tasks (skipped: ${SKIP_REASON})`,
  () => {
    const dir = mkdtempSync(path.join(tmpdir(), "clawtools-e2e-pg-tasks-"));
    let cluster: Cluster | undefined;
    let first: HttpServe;
    let second: HttpServe;
    const leftover: number[] = [];

    beforeAll(async () => {
      ensureBuilt();
      cluster = await startCluster();
      // each serve its own state directory: the tasks are shared through the database alone
      const args = (name: string) => [
        "--workspace",
        dir,
        "--state-dir",
        path.join(dir, name),
        "--store",
        cluster!.url,
      ];
      [first, second] = await Promise.all([
        serveHttp(args("a"), { cwd: dir }),
        serveHttp(args("b"), { cwd: dir }),
      ]);
    }, 400_000);
    afterAll(async () => {
      first?.child.kill("SIGTERM");
      second?.child.kill("SIGTERM");
      for (const pid of leftover) if (alive(pid)) process.kill(pid, "SIGKILL");
      await cluster?.stop();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    it("the other serve answers a task's result, and a killed serve's task as failed with the reason", async () => {
      const connect = async (url: string) => {
        const client = new Client({ name: "e2e-pg-tasks", version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        return client;
      };
      const a = await connect(first.url);
      const b = await connect(second.url);
      const start = (command: string) =>
        a.request(
          { method: "tools/call", params: { name: "exec", arguments: { command }, task: { ttl: 600_000 } } },
          CreateTaskResultSchema,
        );
      const done = await start("sleep 1; echo kept-in-postgres");
      const result = await b.request(
        { method: "tasks/result", params: { taskId: done.task.taskId } },
        CallToolResultSchema,
      );
      expect(JSON.stringify(result.content)).toContain("kept-in-postgres");
      // the same agent's tasks, whichever serve started them
      const listed = await b.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
      expect(listed.tasks.find((t) => t.taskId === done.task.taskId)?.status).toBe("completed");

      const pidFile = path.join(dir, "orphan.pid");
      const { task } = await start(`echo $$ > ${pidFile}; exec sleep 60`);
      const pid = await until(
        () => Number(readFileSync(pidFile, { encoding: "utf8", flag: "a+" }).trim()),
        (p) => p > 0,
      );
      leftover.push(pid);
      const get = () =>
        b.request({ method: "tasks/get", params: { taskId: task.taskId } }, GetTaskResultSchema);
      expect((await get()).status).toBe("working");
      const firstPid = first.child.pid!;
      first.child.kill("SIGKILL");
      await until(
        () => alive(firstPid),
        (x) => !x,
      );
      expect(await get()).toMatchObject({
        status: "failed",
        statusMessage: `Task failed: the process that ran it (pid ${firstPid}) is gone`,
      });
      await b.close();
    }, 90_000);
  },
);
