import { afterEach, describe, expect, it } from "vitest";
import { gate, harness, ScriptedRunner } from "../../test/helpers.js";
import type { AgentTurnOutcome } from "../cron/interfaces.js";
import { createCronTool } from "./cron.js";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function setup(
  ctx: { agentId?: string; sessionKey?: string } = { agentId: "main", sessionKey: "agent:main:main" },
  options: { runner?: ScriptedRunner; name?: string } = {},
) {
  const h = await harness({
    nowMs: Date.parse("2026-02-01T00:00:00Z"),
    ...(options.runner ? { runner: options.runner } : {}),
  });
  stops.push(() => h.service.stop());
  const tool = createCronTool(ctx, {
    ...(options.name ? { name: options.name } : {}),
    service: async () => h.service,
    history: (key, limit) => h.sessions.history(key, { limit }),
  });
  const call = async (args: Record<string, unknown>) =>
    (await tool.execute("c", args as never)).details as any;
  const fails = (args: Record<string, unknown>) => tool.execute("c", args as never);
  return { h, tool, call, fails };
}

const every = { kind: "every", everyMs: 60_000 };

describe("cron tool: actions", () => {
  it("add, list, update, run, runs, remove and status", async () => {
    const { h, call } = await setup();
    expect(await call({ action: "status" })).toEqual({
      enabled: true,
      storePath: h.store.location,
      jobs: 0,
      running: 0,
      nextWakeAtMs: null,
      role: "sole",
      owner: h.service.owner,
      claims: { running: [], queued: [] },
      timings: { leaderLeaseMs: 30_000, claimLeaseMs: 2 * 60 * 60_000, probeMs: 1_000 },
    });
    const job = await call({
      action: "add",
      job: { name: "ping", schedule: every, payload: { kind: "systemEvent", text: "hi" } },
    });
    expect(job).toMatchObject({
      name: "ping",
      enabled: true,
      agentId: "main",
      sessionKey: "agent:main:main",
      sessionTarget: "main",
      wakeMode: "now",
      payload: { kind: "systemEvent", text: "hi" },
      schedule: { kind: "every", everyMs: 60_000, anchorMs: Date.parse("2026-02-01T00:00:00Z") },
      state: { nextRunAtMs: Date.parse("2026-02-01T00:01:00Z") },
    });
    expect(typeof job.id).toBe("string");
    expect(await call({ action: "list" })).toMatchObject({
      total: 1,
      offset: 0,
      hasMore: false,
      nextOffset: null,
    });
    const updated = await call({ action: "update", jobId: job.id, patch: { enabled: false } });
    expect(updated.enabled).toBe(false);
    expect((await call({ action: "list" })).total).toBe(0);
    expect((await call({ action: "list", includeDisabled: true })).total).toBe(1);
    expect(await call({ action: "run", id: job.id, runMode: "due" })).toEqual({
      ok: true,
      ran: false,
      reason: "not-due",
    });
    // run enqueues and answers at once, as OpenClaw's cron.run does; the outcome shows in runs
    const run = await call({ action: "run", id: job.id });
    expect(run).toEqual({ ok: true, enqueued: true, runId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await h.service.idle();
    const runs = await call({ action: "runs", jobId: job.id });
    expect(runs).toMatchObject({ total: 1, offset: 0, hasMore: false, nextOffset: null });
    expect(runs.entries[0]).toMatchObject({
      jobId: job.id,
      runId: run.runId,
      action: "finished",
      status: "ok",
      summary: "hi",
      sessionKey: "agent:main:main",
    });
    expect(await call({ action: "get", jobId: job.id })).toMatchObject({ id: job.id, name: "ping" });
    expect(await call({ action: "remove", jobId: job.id })).toEqual({ ok: true, removed: true });
  });

  it("run answers before a long run ends; a second run meanwhile is already-running", async () => {
    const held = gate<AgentTurnOutcome>();
    const { h, call } = await setup(undefined, { runner: new ScriptedRunner([() => held.promise]) });
    const job = await call({
      action: "add",
      job: { schedule: every, payload: { kind: "agentTurn", message: "slow" }, delivery: { mode: "none" } },
    });
    const run = await call({ action: "run", jobId: job.id });
    expect(run).toEqual({ ok: true, enqueued: true, runId: expect.any(String) });
    expect(await call({ action: "run", jobId: job.id })).toEqual({
      ok: true,
      ran: false,
      reason: "already-running",
    });
    expect((await call({ action: "runs", jobId: job.id })).total).toBe(0);
    held.open({ status: "ok", reply: "finally" });
    await h.service.idle();
    expect((await call({ action: "runs", jobId: job.id })).entries[0]).toMatchObject({
      runId: run.runId,
      status: "ok",
      summary: "finally",
    });
  });

  it("update takes OpenClaw 9.6's job as well as patch, and answers with the job", async () => {
    const { call, fails } = await setup();
    const job = await call({
      action: "add",
      job: { name: "a", schedule: every, payload: { kind: "systemEvent", text: "hi" } },
    });
    expect(await call({ action: "update", jobId: job.id, job: { name: "b" } })).toMatchObject({
      id: job.id,
      name: "b",
    });
    expect(await call({ action: "update", jobId: job.id, patch: { name: "c" } })).toMatchObject({
      name: "c",
    });
    await expect(
      fails({ action: "update", jobId: job.id, patch: { name: "d" }, job: { name: "e" } }),
    ).rejects.toMatchObject({
      name: "ToolInputError",
      message: "update takes patch or job (OpenClaw 9.6's name for it), not both",
    });
    expect((await call({ action: "get", jobId: job.id })).name).toBe("c");
  });

  it("the automations name answers get, remove and run of an unknown id with 9.6's text", async () => {
    const { fails } = await setup(undefined, { name: "automations" });
    for (const action of ["remove", "run"])
      await expect(fails({ action, jobId: "gone" })).rejects.toMatchObject({
        name: "ToolInputError",
        message: "Automation not found: gone. List automations and retry with a current job id.",
      });
    await expect(fails({ action: "get", jobId: "gone" })).rejects.toMatchObject({
      message: "cron job not found: gone. List automations and retry with a current job id.",
    });
  });

  it("wake queues a system event into the main session", async () => {
    const { h, call } = await setup();
    expect(await call({ action: "wake", text: "check the build", mode: "now" })).toEqual({ ok: true });
    expect((await h.sessions.history("agent:main:main")).map((m) => m.content)).toEqual([
      "System: check the build",
    ]);
  });

  it("rebuilds a flattened job from top-level keys", async () => {
    const { call } = await setup();
    const job = await call({ action: "add", name: "flat", schedule: every, text: "flat text" });
    expect(job).toMatchObject({
      name: "flat",
      sessionTarget: "main",
      payload: { kind: "systemEvent", text: "flat text" },
    });
    const turn = await call({ action: "add", schedule: every, message: "do it", model: "openai/gpt-5" });
    expect(turn).toMatchObject({
      sessionTarget: "isolated",
      payload: { kind: "agentTurn", message: "do it", model: "openai/gpt-5" },
      delivery: { mode: "announce" },
    });
    const patched = await call({ action: "update", id: job.id, name: "renamed" });
    expect(patched.name).toBe("renamed");
  });

  it("defaults: a systemEvent targets main, an agentTurn isolated with announce to the direct peer", async () => {
    const { call } = await setup({ agentId: "main", sessionKey: "agent:main:telegram:direct:4242" });
    const turn = await call({
      action: "add",
      job: { schedule: every, payload: { kind: "agentTurn", message: "x" } },
    });
    expect(turn.delivery).toEqual({ mode: "announce", channel: "telegram", to: "4242" });
    expect(turn.sessionTarget).toBe("isolated");
    const at = await call({
      action: "add",
      job: {
        schedule: { kind: "at", at: "2026-02-02T10:00:00" },
        payload: { kind: "systemEvent", text: "x" },
      },
    });
    expect(at.state.nextRunAtMs).toBe(Date.parse("2026-02-02T10:00:00Z"));
    expect(at.deleteAfterRun).toBe(true);
  });

  it("contextMessages appends recent lines to a reminder", async () => {
    const { h, call } = await setup();
    await h.sessions.create({ key: "agent:main:main", agentId: "main" });
    await h.sessions.append("agent:main:main", [
      { role: "user", content: "please remind me about the dentist", timestamp: 1 },
      { role: "assistant", content: "Sure, when?", timestamp: 2 },
      { role: "user", content: `tomorrow ${"a".repeat(300)}`, timestamp: 3 },
    ]);
    const job = await call({
      action: "add",
      contextMessages: 2,
      job: { schedule: every, payload: { kind: "systemEvent", text: "Dentist!" } },
    });
    expect(job.payload.text).toBe(
      `Dentist!\n\nRecent context:\n- Assistant: Sure, when?\n- User: tomorrow ${"a".repeat(210)}…`,
    );
  });
});

describe("cron tool: errors (OpenClaw's texts)", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["job required", { action: "add" }, "job required"],
    ["patch required", { action: "update", jobId: "x" }, "patch required"],
    ["jobId required", { action: "remove" }, "jobId required (id accepted for backward compatibility)"],
    ["unknown action", { action: "explode" }, "Unknown action: explode"],
    [
      "main needs systemEvent",
      {
        action: "add",
        job: { schedule: every, sessionTarget: "main", payload: { kind: "agentTurn", message: "m" } },
      },
      'invalid cron.add params: main cron jobs require payload.kind="systemEvent"',
    ],
    [
      "isolated needs agentTurn",
      {
        action: "add",
        job: { schedule: every, sessionTarget: "isolated", payload: { kind: "systemEvent", text: "t" } },
      },
      'invalid cron.add params: isolated/current/session cron jobs require payload.kind="agentTurn"',
    ],
    [
      "session:<id> needs agentTurn",
      {
        action: "add",
        job: { schedule: every, sessionTarget: "session:abc", payload: { kind: "systemEvent", text: "t" } },
      },
      'invalid cron.add params: isolated/current/session cron jobs require payload.kind="agentTurn"',
    ],
    [
      "main only for the default agent",
      {
        action: "add",
        job: { schedule: every, agentId: "ops", payload: { kind: "systemEvent", text: "t" } },
      },
      'invalid cron.add params: cron: sessionTarget "main" is only valid for the default agent. Use sessionTarget "isolated" with payload.kind "agentTurn" for agent "ops".',
    ],
    [
      "webhook URL (tool)",
      {
        action: "add",
        job: { schedule: every, payload: { message: "m" }, delivery: { mode: "webhook", to: "ftp://x" } },
      },
      'delivery.mode="webhook" requires delivery.to to be a valid http(s) URL',
    ],
    [
      "channel delivery only isolated",
      {
        action: "add",
        job: {
          schedule: every,
          sessionTarget: "current",
          payload: { message: "m" },
          delivery: { mode: "announce", channel: "slack", to: "#ops" },
        },
      },
      'invalid cron.add params: cron channel delivery config is only supported for sessionTarget="isolated"',
    ],
    [
      "failureDestination only isolated",
      {
        action: "add",
        job: {
          schedule: every,
          sessionTarget: "current",
          payload: { message: "m" },
          delivery: { mode: "none", failureDestination: { to: "x" } },
        },
      },
      'invalid cron.add params: cron delivery.failureDestination is only supported for sessionTarget="isolated" unless delivery.mode="webhook"',
    ],
    [
      "croner error",
      {
        action: "add",
        job: { schedule: { kind: "cron", expr: "61 * * * *" }, payload: { kind: "systemEvent", text: "t" } },
      },
      "invalid cron.add params: CronPattern: Invalid value for minute: 61",
    ],
    [
      "bad sessionTarget",
      { action: "add", job: { schedule: every, sessionTarget: "session:", payload: { message: "m" } } },
      'invalid cron.add params: sessionTarget "session:<id>" requires a session id',
    ],
    ["unknown job", { action: "update", jobId: "nope", patch: { name: "x" } }, "unknown cron job id: nope"],
    [
      "unknown job (run)",
      { action: "run", jobId: "nope" },
      "cron job not found: nope. List automations and retry with a current job id.",
    ],
    [
      "unknown job (remove)",
      { action: "remove", jobId: "nope" },
      "cron job not found: nope. List automations and retry with a current job id.",
    ],
    [
      "unknown job (get)",
      { action: "get", id: "nope" },
      "cron job not found: nope. List automations and retry with a current job id.",
    ],
    ["wake text", { action: "wake" }, "text required"],
  ];
  for (const [name, given, message] of cases) {
    it(name, async () => {
      const { call, fails } = await setup();
      let args = given;
      if (given.jobId === "JOB") {
        const job = await call({ action: "add", job: { schedule: every, payload: { text: "t" } } });
        args = { ...given, jobId: job.id };
      }
      await expect(fails(args)).rejects.toThrow(message);
      await expect(fails(args)).rejects.toMatchObject({ name: "ToolInputError", message });
    });
  }

  it("cron.update to a systemEvent without text is refused, and nothing changes", async () => {
    const { call, fails, h } = await setup();
    const job = await call({
      action: "add",
      job: {
        schedule: every,
        sessionTarget: "isolated",
        payload: { message: "m" },
        delivery: { mode: "none" },
      },
    });
    await expect(
      fails({
        action: "update",
        jobId: job.id,
        patch: { sessionTarget: "main", payload: { kind: "systemEvent" } },
      }),
    ).rejects.toThrow('invalid cron.update params: cron.update payload.kind="systemEvent" requires text');
    expect(await h.store.get(job.id)).toEqual(job);
  });
});
