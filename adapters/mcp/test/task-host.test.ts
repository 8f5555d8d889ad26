// The task host over the embedded file store, as several serve processes share it: the store's
// conformance steps, cancellation reaching the run's signal, input requests answered in parts,
// a dead owner's task failing with the reason, and ended tasks dropped after their ttl.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileTaskStore, TASK_KEEP_AFTER_END_MS } from "@clawtools/core/tasks";
import { FakeClock } from "@clawtools/core/testing";
import { sampleTask, taskStoreConformance } from "@clawtools/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type TaskControl, TaskHost } from "../src/task-host.js";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "clawtools-tasks-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

taskStoreConformance({
  name: "fileTaskStore conformance (two stores on one state dir)",
  makePair: () => {
    const dir = path.join(freshDir(), "tasks");
    return [fileTaskStore(dir), fileTaskStore(dir)];
  },
});

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

/** A run that waits for its signal, and the control it was given. */
function parked() {
  let control!: TaskControl;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const run = async (c: TaskControl) => {
    control = c;
    ready();
    await new Promise((_, reject) => c.signal.addEventListener("abort", () => reject(c.signal.reason)));
    return { result: text("never") };
  };
  return { run, started, control: () => control };
}

describe("TaskHost", () => {
  it("a task is stored before start returns; cancel aborts its run's signal and it ends cancelled", async () => {
    const host = new TaskHost({ store: fileTaskStore(freshDir()) });
    const park = parked();
    const task = await host.start({ tool: "exec", scope: "a" }, park.run);
    expect((await host.store.get(task.taskId))?.status).toBe("working");
    await park.started;
    await host.cancel(task.taskId);
    expect(park.control().signal.aborted).toBe(true);
    expect((await host.get(task.taskId))?.status).toBe("cancelled");
    // cancelling again changes nothing
    expect((await host.cancel(task.taskId))?.status).toBe("cancelled");
    await host.close();
  });

  it("input requests park the task input_required until every key is answered, from another host too", async () => {
    const dir = freshDir();
    const host = new TaskHost({ store: fileTaskStore(dir) });
    const other = new TaskHost({ store: fileTaskStore(dir) });
    let answers: Record<string, unknown> | undefined;
    const task = await host.start({ tool: "confirm", scope: "a" }, async (c) => {
      answers = await c.ask({ one: { method: "elicitation/create" }, two: { method: "elicitation/create" } });
      return { result: text("answered") };
    });
    const waitFor = async (ok: (s: string | undefined) => boolean) => {
      for (let i = 0; i < 500; i++) {
        const now = await other.get(task.taskId);
        if (ok(now?.status)) return now;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("timed out");
    };
    expect(await waitFor((s) => s === "input_required")).toMatchObject({
      inputRequests: { one: {}, two: {} },
    });
    await other.answer(task.taskId, { one: "yes", stray: "ignored" });
    expect(await other.get(task.taskId)).toMatchObject({
      status: "input_required",
      inputRequests: { two: {} },
    });
    await host.answer(task.taskId, { two: "also" });
    expect((await host.waitEnded(task.taskId))?.result).toEqual(text("answered"));
    expect(answers).toEqual({ one: "yes", two: "also" });
    await host.close();
    await other.close();
  });

  it("a task whose owner process is gone ends failed with the reason; a silent owner elsewhere after the lease", async () => {
    const clock = new FakeClock(10_000);
    const store = fileTaskStore(freshDir());
    const host = new TaskHost({ store, clock, leaseMs: 30_000 });
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    await store.create(
      sampleTask("t-dead", { owner: { pid: dead, instance: "gone", host: hostname() }, heartbeatAt: 10_000 }),
    );
    expect(await host.get("t-dead")).toMatchObject({
      status: "failed",
      error: { code: -32603, message: `Task failed: the process that ran it (pid ${dead}) is gone` },
    });
    await store.create(
      sampleTask("t-far", { owner: { pid: 1, instance: "far", host: "another-host" }, heartbeatAt: 10_000 }),
    );
    clock.advance(29_000);
    expect((await host.get("t-far"))?.status).toBe("working");
    clock.advance(2_000);
    expect((await host.get("t-far"))?.error?.message).toMatch(
      /^Task failed: the process that ran it \(pid 1 on another-host\) sent no heartbeat for 31 s$/,
    );
    await host.close();
  });

  it("an ended task is kept for its ttl (and a minute after it ended), then dropped from the store", async () => {
    const clock = new FakeClock(0);
    const dir = freshDir();
    const host = new TaskHost({ store: fileTaskStore(dir), clock, ttlMs: 120_000 });
    const task = await host.start({ tool: "exec", scope: "a" }, async () => ({ result: text("done") }));
    // (waitEnded sleeps on the fake clock: poll by hand)
    while ((await host.get(task.taskId))?.status !== "completed") await new Promise((r) => setImmediate(r));
    clock.advance(120_000);
    expect((await host.get(task.taskId))?.result).toEqual(text("done"));
    clock.advance(Math.max(1, TASK_KEEP_AFTER_END_MS - 120_000) + 1);
    expect(await host.get(task.taskId)).toBeUndefined();
    expect(existsSync(path.join(dir, `${task.taskId}.json`))).toBe(false);
    await host.close();
  });
});
