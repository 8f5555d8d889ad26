import { describe, expect, it } from "vitest";
import { SPAWN_NOTE, SPAWN_NOTE_PULL, YIELD_IDLE } from "../src/index.js";
import { gate, setup } from "./helpers.js";

// A caller no push reaches (an MCP host, ctx.laterResults "pull") gets its children's answers by
// calling what the spawn result names: sessions_yield, which waits and returns one answer per call.
describe("sessions_yield for a host (laterResults pull)", () => {
  it("is offered without an onYield runner, and returns each child's answer once, in the order they finish", async () => {
    const first = gate();
    const second = gate();
    const t = setup({
      script: (s) => (s.message.includes("[Subagent Task]: slow") ? first.promise : second.promise),
    });
    const host = t.as("main", { laterResults: "pull" });
    // no onYield: an in-process caller is not offered sessions_yield, a host is
    expect(t.tool("sessions_yield")).toBeUndefined();
    expect(host.tool("sessions_yield")).toBeDefined();
    expect(host.tool("sessions_spawn")!.description).toContain("sessions_yield");

    const slow = await host.json("sessions_spawn", { task: "slow", label: "slow" });
    const fast = await host.json("sessions_spawn", { task: "fast", label: "fast" });
    expect(slow.note).toBe(SPAWN_NOTE_PULL);
    expect(slow.note).not.toContain("push-based");

    // nothing finished within the wait: "running", and the host is told to call again
    expect(await host.json("sessions_yield", { timeoutSeconds: 1 })).toEqual({
      status: "running",
      running: 2,
      note: "2 sub-agent(s) still running: call sessions_yield again to keep waiting.",
    });

    const waiting = host.json("sessions_yield", {});
    second.open("fast answer");
    expect(await waiting).toMatchObject({
      status: "completed",
      runId: fast.runId,
      childSessionKey: fast.childSessionKey,
      label: "fast",
      task: "fast",
      reply: "fast answer",
      note: "1 more sub-agent(s) of this session: call sessions_yield again for each.",
    });
    first.open("slow answer");
    expect(await host.json("sessions_yield", {})).toMatchObject({
      status: "completed",
      runId: slow.runId,
      reply: "slow answer",
    });
    expect((await t.service.runs.get(slow.runId))?.collectedAt).toEqual(expect.any(Number));
    // every answer was handed over once: nothing left to wait for
    expect(await host.json("sessions_yield", {})).toEqual({ status: "idle", error: YIELD_IDLE });
    await t.service.idle();
  });

  it("an in-process caller keeps OpenClaw's push note", async () => {
    const t = setup({ script: () => "done" });
    const spawned = await t.json("sessions_spawn", { task: "x" });
    expect(spawned.note).toBe(SPAWN_NOTE);
    await t.service.idle();
  });
});
