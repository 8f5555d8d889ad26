import path from "node:path";
import { type AgentToolResult, createToolset } from "@clawtools/core";
import {
  resetPolicyWarnings,
  resolveSandboxToolPolicy,
  resolveSubagentToolPolicy,
} from "@clawtools/core/policy";
import { type AgentRunner, FileSessionStore, type SessionStore } from "@clawtools/sessions";
import { describe, expect, it } from "vitest";
import type { AgentTurnRunner } from "../src/cron/interfaces.js";
import { type AutomationSessions, createAutomationPlugin, NO_STATE_DIR } from "../src/plugin.js";
import { FakeClock } from "../src/testing.js";
import { ScriptedRunner, tempDir } from "./helpers.js";

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const body = (r: AgentToolResult<unknown>) => JSON.parse(text(r));

// the sessions section's store and runner satisfy the structural types, with no runtime import
const storeFits = (store: SessionStore): AutomationSessions => store;
const runnerFits = (runner: AgentRunner): AgentTurnRunner => runner;
void storeFits;
void runnerFits;

function setup(
  options: { runner?: ScriptedRunner; allow?: string[]; deny?: string[]; owner?: boolean } = {},
) {
  const dir = tempDir();
  const clock = new FakeClock(Date.parse("2026-05-01T08:00:00Z"));
  const sessions = new FileSessionStore(path.join(dir, "sessions"));
  const runner = options.runner ?? new ScriptedRunner();
  const plugin = createAutomationPlugin({ sessions, runner, clock });
  const set = createToolset({
    plugins: [plugin],
    context: { workspaceDir: dir, agentId: "main", sessionKey: "agent:main:webchat:7" },
    policy:
      options.allow || options.deny
        ? {
            global: {
              ...(options.allow ? { allow: options.allow } : {}),
              ...(options.deny ? { deny: options.deny } : {}),
            },
          }
        : { profile: "coding" },
    senderIsOwner: options.owner ?? true,
  });
  const tool = (name: string) => set.tools.find((t) => t.name === name);
  const call = async (args: Record<string, unknown>, name = "cron") =>
    body((await tool(name)!.execute("c", args as never)) as AgentToolResult<unknown>);
  return { dir, clock, sessions, runner, plugin, set, tool, call };
}

describe("@clawtools/automation through createToolset", () => {
  it("a systemEvent job lands in the main session of a real FileSessionStore", async () => {
    const { call, clock, sessions, set, plugin } = setup();
    const job = await call({
      action: "add",
      job: {
        name: "standup",
        schedule: { kind: "cron", expr: "30 9 * * *", tz: "UTC" },
        payload: { kind: "systemEvent", text: "Standup in 5 minutes" },
      },
    });
    expect(job.state.nextRunAtMs).toBe(Date.parse("2026-05-01T09:30:00Z"));
    const status = await call({ action: "status" });
    expect(status.jobs).toBe(1);
    expect(status.storePath).toMatch(/cron[/\\]jobs\.json$/);
    const svc = await plugin.cronService({ stateDir: path.dirname(path.dirname(status.storePath)) });
    await clock.advance(90 * 60_000, () => svc.idle());
    const history = await sessions.history("agent:main:main");
    expect(history.map((m) => [m.role, m.content, m.timestamp])).toEqual([
      ["user", "System: Standup in 5 minutes", Date.parse("2026-05-01T09:30:00Z")],
    ]);
    await set.dispose();
    expect(clock.pending).toBe(0);
  });

  it("an agentTurn job runs through the runner and announces its reply to the session that made it", async () => {
    const runner = new ScriptedRunner([{ status: "ok", reply: "Build is green." }]);
    const { call, clock, sessions, set, plugin } = setup({ runner });
    await call({
      action: "add",
      job: {
        name: "ci",
        schedule: { kind: "every", everyMs: 600_000 },
        payload: { kind: "agentTurn", message: "check CI", model: "openai/gpt-5" },
      },
    });
    const status = await call({ action: "status" });
    const svc = await plugin.cronService({ stateDir: path.dirname(path.dirname(status.storePath)) });
    await clock.advance(600_000, () => svc.idle());
    expect(runner.calls).toHaveLength(1);
    expect(runner.calls[0]).toMatchObject({ message: "check CI", model: "openai/gpt-5" });
    expect(runner.calls[0]!.sessionKey).toMatch(/^agent:main:cron:[0-9a-f-]+:run:[0-9a-f-]+$/);
    expect((await sessions.get(runner.calls[0]!.sessionKey))?.agentId).toBe("main");
    const announced = await sessions.history("agent:main:webchat:7");
    expect(announced).toHaveLength(1);
    expect(announced[0]!.content).toContain("[Internal task completion event]\nsource: cron\n");
    expect(announced[0]!.content).toContain("type: cron job\ntask: ci\nstatus: completed successfully\n");
    expect(announced[0]!.content).toContain("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\nBuild is green.\n");
    await set.dispose();
  });

  it("serves automations (OpenClaw 9.6's name) wherever cron is: profile, allow, deny, owner-only", () => {
    resetPolicyWarnings();
    const coding = createToolset({
      plugins: [createAutomationPlugin()],
      context: { workspaceDir: tempDir() },
      policy: { profile: "coding" },
      senderIsOwner: true,
    });
    expect(coding.tools.map((t) => t.name)).toEqual(["cron", "automations"]);
    expect(coding.diagnostics.filter((d) => d.toolId === "automations")).toEqual([]);
    // `serve`'s default profile once warned "allowlist contains unknown entries (automations)"
    expect(coding.warnings).toEqual([]);
    void coding.dispose();
    // a policy naming one of the two names both
    expect(setup({ allow: ["cron"] }).set.tools.map((t) => t.name)).toEqual(["cron", "automations"]);
    expect(setup({ allow: ["automations"] }).set.tools.map((t) => t.name)).toEqual(["cron", "automations"]);
    expect(setup({ allow: ["*"], deny: ["cron"] }).set.tools.map((t) => t.name)).toEqual(["gateway"]);
    // core's sub-agent and sandbox deny lists name cron: automations is kept out with it
    for (const policy of [
      { subagent: resolveSubagentToolPolicy({ depth: 1 })! },
      { sandbox: resolveSandboxToolPolicy() },
    ]) {
      const child = createToolset({
        plugins: [createAutomationPlugin()],
        context: { workspaceDir: tempDir() },
        policy,
        senderIsOwner: true,
      });
      expect(child.tools.map((t) => t.name)).toEqual([]);
      void child.dispose();
    }
    const allowed = setup({ allow: ["cron", "automations", "gateway"] });
    expect(allowed.set.tools.map((t) => t.name).sort()).toEqual(["automations", "cron", "gateway"]);
    expect(allowed.set.meta("automations")).toMatchObject({ sectionId: "automation", ownerOnly: true });
    const stranger = setup({ allow: ["cron", "automations", "gateway"], owner: false });
    expect(stranger.set.tools.map((t) => t.name)).toEqual([]);
  });

  it("the automations alias drives the same jobs", async () => {
    const { call } = setup({ allow: ["cron", "automations"] });
    const job = await call(
      {
        action: "add",
        job: { schedule: { kind: "every", everyMs: 60_000 }, payload: { kind: "systemEvent", text: "x" } },
      },
      "automations",
    );
    expect((await call({ action: "list" }, "cron")).jobs.map((j: { id: string }) => j.id)).toEqual([job.id]);
  });

  it("says why when there is no state directory for the store", async () => {
    const plugin = createAutomationPlugin();
    const set = createToolset({ plugins: [plugin], policy: { profile: "coding" }, senderIsOwner: true });
    const result = (await set.tools[0]!.execute("c", {
      action: "status",
    } as never)) as AgentToolResult<unknown>;
    expect(result.isError).toBe(true);
    expect(body(result).error).toBe(NO_STATE_DIR);
  });

  it("validates options given in code", () => {
    expect(() => createAutomationPlugin({ cron: { maxConcurrentRuns: 0 } })).toThrow(
      "Invalid configuration for automation:\n  - cron.maxConcurrentRuns: must be >= 1",
    );
  });
});
