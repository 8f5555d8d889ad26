import { describe, expect, it } from "vitest";
import { FileSessionStore, RunTable } from "../src/index.js";
import { createScriptedRunner } from "../src/testing.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gate } from "./helpers.js";

// Runners release a run's state when it ends, and keep a bounded cache of recent outcomes (issue 26).

describe("RunTable", () => {
  it("holds a run while it runs, releases it when it ends, and keeps only the newest outcomes", async () => {
    const table = new RunTable(2);
    const gates = [
      gate<{ status: "ok"; reply: string }>(),
      gate<{ status: "ok"; reply: string }>(),
      gate<{ status: "ok"; reply: string }>(),
    ];
    for (const [i, g] of gates.entries()) table.add(`r${i}`, { done: g.promise });
    expect(table.size).toEqual({ live: 3, ended: 0 });
    expect(await table.wait("r0", 1)).toEqual({ status: "running" });
    for (const [i, g] of gates.entries()) g.open({ status: "ok", reply: `reply ${i}` });
    await Promise.all(gates.map((g) => g.promise));
    await new Promise((r) => setImmediate(r));
    expect(table.size).toEqual({ live: 0, ended: 2 });
    expect(table.get("r2")).toBeUndefined();
    expect(await table.wait("r2", 1)).toEqual({ status: "ok", reply: "reply 2" });
    expect(await table.wait("r0", 1)).toEqual({ status: "error", error: "Unknown run: r0" });
  });

  it("a run whose done rejects is released with an error outcome", async () => {
    const table = new RunTable();
    const g = gate<never>();
    table.add("bad", { done: g.promise });
    g.fail(new Error("boom"));
    await g.promise.catch(() => {});
    await new Promise((r) => setImmediate(r));
    expect(await table.wait("bad", 1)).toEqual({ status: "error", error: "boom" });
  });
});

describe("createScriptedRunner releases ended runs", () => {
  it("300 runs: none held after they end, 256 outcomes and turns kept", async () => {
    const store = new FileSessionStore(mkdtempSync(path.join(tmpdir(), "scripted-release-")));
    await store.create({ key: "agent:main:main", agentId: "main" });
    const runner = createScriptedRunner({ store });
    let first = "";
    for (let i = 0; i < 300; i++) {
      const { runId } = await runner.start({ sessionKey: "agent:main:main", message: `m${i}` });
      first ||= runId;
      await runner.wait(runId, 10_000);
    }
    await new Promise((r) => setImmediate(r));
    expect(runner.table.size).toEqual({ live: 0, ended: 256 });
    expect(runner.runs.size).toBe(256);
    expect(await runner.wait(first, 1)).toEqual({ status: "error", error: `Unknown run: ${first}` });
    expect(await runner.wait("run-300", 1)).toEqual({ status: "ok", reply: "Done: m299" });
  });
});
