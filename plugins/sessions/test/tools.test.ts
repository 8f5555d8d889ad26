import { describe, expect, it, vi } from "vitest";
import { NO_RUNNER, NO_YIELD } from "../src/index.js";
import { gate, json, setup } from "./helpers.js";

describe("subagents target resolution", () => {
  async function fourFinished() {
    const t = setup();
    for (const label of ["alpha-one", "alpha-two", "beta", "beta"])
      expect((await t.json("sessions_spawn", { task: `task ${label}`, label })).status).toBe("accepted");
    await t.service.idle();
    const runs = await t.service.runs.listByRequester("agent:main:main");
    return { t, runs };
  }
  const kill = async (t: ReturnType<typeof setup>, target?: string) =>
    t.json("subagents", { action: "kill", ...(target !== undefined ? { target } : {}) });

  it("resolves last, an index, a session key, a label, a label prefix and a run id prefix", async () => {
    const { t, runs } = await fourFinished();
    const id = (target: string) => kill(t, target).then((r) => r.runId);
    expect(runs.map((r) => r.runId)).toEqual(["run-1", "run-2", "run-3", "run-4"]);
    expect(await id("last")).toBe("run-4");
    expect(await id("1")).toBe("run-4"); // newest first
    expect(await id("4")).toBe("run-1");
    expect(await id(runs[1]!.childSessionKey)).toBe("run-2");
    expect(await id("alpha-one")).toBe("run-1");
    expect(await id("alpha-t")).toBe("run-2");
    expect(await id("run-3")).toBe("run-3");
    expect(await kill(t, "alpha-one")).toMatchObject({
      status: "done",
      text: "alpha-one is already finished.",
    });
  });

  it("answers OpenClaw's error for every target it cannot resolve", async () => {
    const { t } = await fourFinished();
    const error = (target?: string) => kill(t, target).then((r) => r.error);
    expect(await error()).toBe("Missing subagent target.");
    expect(await error("  ")).toBe("Missing subagent target.");
    expect(await error("5")).toBe("Invalid subagent index: 5");
    expect(await error("0")).toBe("Invalid subagent index: 0");
    expect(await error("agent:main:subagent:nope")).toBe(
      "Unknown subagent session: agent:main:subagent:nope",
    );
    expect(await error("beta")).toBe("Ambiguous subagent label: beta");
    expect(await error("alpha")).toBe("Ambiguous subagent label prefix: alpha");
    expect(await error("run-")).toBe("Ambiguous subagent run id prefix: run-");
    expect(await error("zzz")).toBe("Unknown subagent target: zzz");
    expect((await t.json("subagents", { action: "steer", target: "zzz", message: "x" })).error).toBe(
      "Unknown subagent target: zzz",
    );
    expect(await t.json("subagents", { action: "kill", target: "all" })).toMatchObject({
      status: "ok",
      text: "no running subagents to kill.",
    });
  });

  it("lists active runs first, then recent ones, with announce delivery", async () => {
    const hold = gate();
    const t = setup({ script: (turn) => (turn.message.includes("hold") ? hold.promise : "quick") });
    await t.json("sessions_spawn", { task: "quick one", label: "q" });
    await t.service.idle();
    await t.json("sessions_spawn", { task: "hold on", label: "h" });
    const list = await t.json("subagents", { action: "list" });
    expect(list).toMatchObject({ status: "ok", action: "list", total: 2, callerIsSubagent: false });
    expect(list.active.map((r: { label: string; index: number }) => [r.index, r.label])).toEqual([[1, "h"]]);
    expect(list.recent[0]).toMatchObject({ index: 2, label: "q", status: "done", announce: "delivered" });
    expect(list.text).toBe("1. h — running\n2. q — done (announce delivered)");
    hold.open("held");
    await t.service.idle();
  });

  it("a leaf sub-agent cannot kill or steer", async () => {
    const t = setup();
    const child = t.as("agent:main:subagent:x");
    expect(await child.json("subagents", { action: "kill", target: "last" })).toMatchObject({
      status: "forbidden",
      callerIsSubagent: true,
      error: "Leaf subagents cannot control other sessions.",
    });
  });

  it("a sub-agent above the deepest level controls its own children", async () => {
    const t = setup({ maxSpawnDepth: 2 });
    const child = await t.json("sessions_spawn", { task: "middle", label: "middle" });
    await t.service.idle();
    const middle = t.as(child.childSessionKey);
    expect(await middle.json("subagents", { action: "kill", target: "all" })).toMatchObject({
      status: "ok",
      callerIsSubagent: true,
      text: "no running subagents to kill.",
    });
  });

  it("kill cascades to the descendants and names them", async () => {
    const t = setup({
      maxSpawnDepth: 2,
      script: (turn) =>
        new Promise((_, reject) => turn.signal.addEventListener("abort", () => reject(new Error("stop")))),
    });
    const child = await t.json("sessions_spawn", { task: "parent work", label: "parent" });
    const grand = await t
      .as(child.childSessionKey)
      .json("sessions_spawn", { task: "nested work", label: "nested" });
    expect(grand.status).toBe("accepted");
    const killed = await t.json("subagents", { action: "kill", target: "parent" });
    expect(killed).toMatchObject({
      status: "ok",
      runId: child.runId,
      cascadeKilled: 1,
      cascadeLabels: ["nested"],
      text: "killed parent (+ 1 descendants).",
    });
    await t.service.idle();
    expect((await t.service.runs.get(grand.runId))?.status).toBe("killed");
    expect((await t.service.store.get(grand.childSessionKey))?.status).toBe("killed");
  });
});

describe("subagents steer", () => {
  it("steers a running sub-agent, rate-limits a second steer, refuses long messages and finished runs", async () => {
    const hold = gate();
    const t = setup({ script: () => hold.promise });
    const spawned = await t.json("sessions_spawn", { task: "long job", label: "worker" });
    expect(
      await t.json("subagents", { action: "steer", target: "worker", message: "x".repeat(4_001) }),
    ).toMatchObject({
      status: "error",
      error: "Message too long (4001 chars, max 4000).",
    });
    expect(
      await t.json("subagents", { action: "steer", target: "worker", message: "go left" }),
    ).toMatchObject({
      status: "accepted",
      runId: spawned.runId,
      text: "steered worker.",
    });
    expect(t.runner().runs.get(spawned.runId)?.steers).toEqual(["go left"]);
    expect(
      await t.json("subagents", { action: "steer", target: "worker", message: "go right" }),
    ).toMatchObject({
      status: "rate_limited",
      error: "Steer rate limit exceeded. Wait a moment before sending another steer.",
    });
    expect(t.runner().runs.get(spawned.runId)?.steers).toEqual(["go left"]);
    hold.open("finished");
    await t.service.idle();
    expect(await t.json("subagents", { action: "steer", target: "worker", message: "more" })).toMatchObject({
      status: "done",
      text: "worker is already finished.",
    });
    expect(await t.json("subagents", { action: "bogus" as never })).toMatchObject({ status: "error" });
  });
});

describe("sessions_send and label resolution", () => {
  it("finds a session by label within the agent, and names what is wrong otherwise", async () => {
    const t = setup({ visibility: "all", agentToAgent: { enabled: true } });
    const store = t.service.store;
    await store.create({ key: "agent:main:helper", agentId: "main", label: "helper" });
    await store.create({ key: "agent:ops:helper", agentId: "ops", label: "helper" });
    expect(await t.json("sessions_send", { label: "helper", message: "hi" })).toMatchObject({
      status: "ok",
      reply: "Done: hi",
      sessionKey: "agent:main:helper",
    });
    expect(await t.json("sessions_send", { label: "helper", agentId: "ops", message: "hi" })).toMatchObject({
      status: "ok",
      sessionKey: "agent:ops:helper",
    });
    expect(await t.json("sessions_send", { label: "nobody", message: "x" })).toEqual({
      status: "error",
      error: "No session found with label: nobody",
    });
    expect(await t.json("sessions_send", { message: "x" })).toEqual({
      status: "error",
      error: "Either sessionKey or label is required",
    });
    expect(await t.json("sessions_send", { sessionKey: "main", label: "helper", message: "x" })).toEqual({
      status: "error",
      error: "Provide either sessionKey or label (not both).",
    });
    const sandboxed = t.as("main", { sandboxed: true });
    expect(await sandboxed.json("sessions_send", { label: "helper", agentId: "ops", message: "x" })).toEqual({
      status: "forbidden",
      error: "Sandboxed sessions_send label lookup is limited to this agent",
    });
    expect(await sandboxed.json("sessions_send", { label: "helper", message: "x" })).toEqual({
      status: "forbidden",
      error: "Session not visible from this sandboxed agent session.",
    });
  });

  it("timeoutSeconds 0 returns accepted; a run still going at the timeout is reported, not lost", async () => {
    const hold = gate();
    const t = setup({ visibility: "agent", script: () => hold.promise });
    await t.service.store.create({ key: "agent:main:slow", agentId: "main" });
    expect(
      await t.json("sessions_send", { sessionKey: "agent:main:slow", message: "a", timeoutSeconds: 0 }),
    ).toEqual({
      runId: "run-1",
      status: "accepted",
      sessionKey: "agent:main:slow",
      delivery: { status: "pending", mode: "announce" },
    });
    expect(
      await t.json("sessions_send", { sessionKey: "agent:main:slow", message: "b", timeoutSeconds: 0.05 }),
    ).toEqual({
      runId: "run-2",
      status: "timeout",
      error: "No reply within 0.05s; the message was delivered and the run goes on.",
      sessionKey: "agent:main:slow",
    });
    hold.open("late");
    expect(await t.runner().wait("run-2", 1_000)).toEqual({ status: "ok", reply: "late" });
  });
});

describe("session_status", () => {
  it("shows the session's own model override, and model=default resets it", async () => {
    const t = setup({ defaultModel: "openai/gpt-default", visibility: "agent" });
    const card = (r: { details?: unknown }) => (r.details as { statusText: string }).statusText;
    const first = await t.call("session_status");
    expect(card(first)).toContain("🧠 Model: openai/gpt-default\n");
    const set = await t.call("session_status", { model: "anthropic/claude-x" });
    expect(set.details).toMatchObject({ ok: true, sessionKey: "agent:main:main", changedModel: true });
    expect(card(set)).toContain("🧠 Model: anthropic/claude-x (session override)");
    expect((await t.service.store.get("agent:main:main"))?.model).toBe("anthropic/claude-x");
    // the override is what runs in this session use, and what sessions_list shows
    await t.json("sessions_send", { sessionKey: "main", message: "hello" });
    expect(t.runner().runs.get("run-1")?.model).toBe("anthropic/claude-x");
    expect((await t.json("sessions_list")).sessions[0]).toMatchObject({
      key: "main",
      model: "anthropic/claude-x",
    });
    const reset = await t.call("session_status", { model: "default" });
    expect(card(reset)).toContain("🧠 Model: openai/gpt-default\n");
    expect((await t.service.store.get("agent:main:main"))?.model).toBeUndefined();
    // a sub-agent spawned with a model shows that model, not the default
    const spawned = await t.json("sessions_spawn", { task: "t", model: "openai/gpt-mini" });
    expect(spawned.modelApplied).toBe(true);
    expect(card(await t.call("session_status", { sessionKey: spawned.childSessionKey }))).toContain(
      "🧠 Model: openai/gpt-mini (session override)",
    );
    await t.service.idle();
  });

  it("refuses a model it cannot parse and a session it may not see", async () => {
    const t = setup({ visibility: "tree" });
    await t.service.store.create({ key: "agent:main:other", agentId: "main" });
    const bad = await t.call("session_status", { model: "nonsense" });
    expect(bad.isError).toBe(true);
    expect(json(bad).error).toBe('Unrecognized model "nonsense".');
    const hidden = await t.call("session_status", { sessionKey: "agent:main:other" });
    expect(json(hidden).error).toBe(
      "Session status visibility is restricted to the current session tree (sessions.visibility=tree).",
    );
  });
});

describe("sessions_yield", () => {
  it("without onYield the runner cannot end a turn: the tool is not offered, and the diagnostic says why", async () => {
    const t = setup();
    expect(t.set.tools.map((x) => x.name)).not.toContain("sessions_yield");
    expect(t.set.diagnostics.find((d) => d.toolId === "sessions_yield")?.reason).toBe(NO_YIELD);
    expect(NO_YIELD).toBe(
      "the agent runner cannot end a turn (it has no onYield); runner-pi and ai-sdk runners can",
    );
  });

  it("with onYield ends the turn with the message (default Turn yielded.)", async () => {
    const onYield = vi.fn(async () => {});
    const t = setup({ onYield });
    expect(await t.json("sessions_yield")).toEqual({ status: "yielded", message: "Turn yielded." });
    expect(await t.json("sessions_yield", { message: "waiting for kids" })).toEqual({
      status: "yielded",
      message: "waiting for kids",
    });
    expect(onYield.mock.calls).toEqual([
      ["agent:main:main", "Turn yielded."],
      ["agent:main:main", "waiting for kids"],
    ]);
    expect(await t.as(undefined).json("sessions_yield")).toEqual({
      status: "error",
      error: "No session context",
    });
  });

  it("with no runner, spawn, send and yield are left out with a reason naming what to set", async () => {
    const t = setup({ noRunner: true });
    expect(t.set.tools.map((x) => x.name).sort()).toEqual([
      "session_status",
      "sessions_history",
      "sessions_list",
      "subagents",
    ]);
    const reasons = (
      t.set.diagnostics as Array<{ tool?: string; name?: string; reason?: string; message?: string }>
    ).map((d) => JSON.stringify(d));
    expect(reasons.some((r) => r.includes("sessions_spawn") && r.includes(NO_RUNNER.slice(0, 40)))).toBe(
      true,
    );
  });
});
