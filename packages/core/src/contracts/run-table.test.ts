import { describe, expect, it } from "vitest";
import type { RunOutcome } from "./agent-runner.js";
import { RunTable, type SessionRun } from "./run-table.js";

// The bookkeeping every in-process runner shares (issue 24: one of each mechanism).

function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

interface Run extends SessionRun {
  stopped: number;
  end: (outcome: RunOutcome) => void;
}

function run(): Run {
  const g = gate<RunOutcome>();
  return { done: g.promise, stopped: 0, end: g.open };
}

/** Lets the table's own `done` handlers run (they are queued behind the caller's). */
const settled = () => new Promise((r) => setImmediate(r));

describe("RunTable", () => {
  it("holds a run while it runs, releases it when it ends, and keeps only the newest outcomes", async () => {
    const table = new RunTable<Run>(2);
    const runs = [run(), run(), run()];
    for (const [i, r] of runs.entries()) table.add(`r${i}`, r);
    expect(table.size).toEqual({ live: 3, ended: 0 });
    expect(await table.wait("r0", 1)).toEqual({ status: "running" });
    for (const [i, r] of runs.entries()) r.end({ status: "ok", reply: `reply ${i}` });
    await settled();
    expect(table.size).toEqual({ live: 0, ended: 2 });
    expect(table.get("r2")).toBeUndefined();
    expect(runs[2]!.outcome).toEqual({ status: "ok", reply: "reply 2" });
    expect(await table.wait("r2", 1)).toEqual({ status: "ok", reply: "reply 2" });
    expect(await table.wait("r0", 1)).toEqual({ status: "error", error: "Unknown run: r0" });
  });

  it("a run whose done rejects is released with an error outcome", async () => {
    const table = new RunTable<SessionRun>();
    const g = gate<RunOutcome>();
    table.add("bad", { done: g.promise });
    g.fail(new Error("boom"));
    await settled();
    expect(await table.wait("bad", 1)).toEqual({ status: "error", error: "boom" });
  });

  it("start: the session can yield while its run is being built, and no longer once it ended", async () => {
    const table = new RunTable<Run>();
    const building = gate<void>();
    const r = run();
    const started = table.start(
      "agent:main:s1",
      async () => {
        await building.promise;
        return r;
      },
      "run-1",
    );
    expect(table.canYield("agent:main:s1")).toBe(true);
    expect(table.canYield("agent:main:other")).toBe(false);
    // the run is not in the table until it is built: nothing to yield yet
    expect(() => table.yieldTurn("agent:main:s1", "wait")).toThrow(
      "No live run in session agent:main:s1 to yield",
    );
    building.open();
    expect(await started).toEqual({ runId: "run-1" });
    expect(table.yieldTurn("agent:main:s1", "waiting for the children")).toBe(r);
    expect(r.yielded).toBe("waiting for the children");
    r.end({ status: "ok", reply: "", yielded: true });
    await settled();
    expect(table.canYield("agent:main:s1")).toBe(false);
    expect(() => table.yieldTurn("agent:main:s1", "late")).toThrow("No live run");
  });

  it("start: a build that throws leaves the session without a run and rethrows", async () => {
    const table = new RunTable<Run>();
    await expect(
      table.start("agent:main:s1", async () => {
        throw new Error("no model configured");
      }),
    ).rejects.toThrow("no model configured");
    expect(table.canYield("agent:main:s1")).toBe(false);
    expect(table.size).toEqual({ live: 0, ended: 0 });
  });

  it("start: ids are random by default, and a given id already running is refused", async () => {
    const table = new RunTable<Run>();
    const a = await table.start("s", async () => run());
    const b = await table.start("s", async () => run());
    expect(a.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.runId).not.toBe(b.runId);
    await expect(table.start("t", async () => run(), a.runId)).rejects.toThrow(
      `Run id already in use: ${a.runId}`,
    );
  });

  it("a session's newer run is the one a yield reaches; the older run ending does not forget it", async () => {
    const table = new RunTable<Run>();
    const first = run();
    const second = run();
    await table.start("s", async () => first, "one");
    await table.start("s", async () => second, "two");
    first.end({ status: "ok", reply: "first" });
    await settled();
    expect(table.canYield("s")).toBe(true);
    expect(table.yieldTurn("s", "y")).toBe(second);
    expect(first.yielded).toBeUndefined();
  });

  it("abort stops a running run once and waits for its end; an ended or unknown run is left alone", async () => {
    const table = new RunTable<Run>();
    const r = run();
    await table.start("s", async () => r, "r");
    const aborted = table.abort("r", (x) => {
      x.stopped++;
      x.end({ status: "aborted", error: "aborted" });
    });
    await aborted;
    expect(r.stopped).toBe(1);
    await settled();
    await table.abort("r", (x) => x.stopped++);
    await table.abort("unknown", () => {
      throw new Error("must not be called");
    });
    expect(r.stopped).toBe(1);
    expect(await table.wait("r", 1)).toEqual({ status: "aborted", error: "aborted" });
  });

  it("steerable: a running run that has not yielded; not a yielded, ended or unknown one", async () => {
    const table = new RunTable<Run>();
    const r = run();
    await table.start("s", async () => r, "r");
    expect(table.steerable("r")).toBe(r);
    table.yieldTurn("s", "y");
    expect(table.steerable("r")).toBeUndefined();
    const other = run();
    await table.start("t", async () => other, "o");
    other.end({ status: "ok" });
    await settled();
    expect(table.steerable("o")).toBeUndefined();
    expect(table.steerable("nope")).toBeUndefined();
  });

  it("a yield racing the run's end: the end wins, the yield is refused (never a yield on an ended run)", async () => {
    const table = new RunTable<Run>();
    const r = run();
    await table.start("s", async () => r, "r");
    r.end({ status: "ok", reply: "done" });
    // the run's own outcome is known before the table's handlers run
    r.outcome = { status: "ok", reply: "done" };
    expect(() => table.yieldTurn("s", "y")).toThrow("No live run in session s to yield");
    await settled();
    expect(await table.wait("r", 1)).toEqual({ status: "ok", reply: "done" });
  });
});
