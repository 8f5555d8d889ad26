import { type AgentToolResult, createToolset, type ToolContext } from "@clawtools/core";
import { checkPluginContract } from "@clawtools/testing";
import { describe, expect, it } from "vitest";
import { type AgentsPluginOptions, createAgentsPlugin, listAgents, type PlanEvent } from "../src/index.js";
import { createUpdatePlanTool } from "../src/tools/update-plan.js";

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

function toolset(options: AgentsPluginOptions = {}, context: Partial<ToolContext> = {}) {
  const plugin = createAgentsPlugin(options);
  const set = createToolset({
    plugins: [plugin],
    context: { workspaceDir: "/tmp", agentId: "main", sessionKey: "agent:main:main", ...context },
    policy: { profile: "full" },
  });
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await set.tools.find((t) => t.name === name)!.execute("c", args)) as AgentToolResult<unknown>;
  return { plugin, set, call };
}

describe("agents_list", () => {
  const list = [{ id: "main", name: "Main" }, { id: "research", name: "Researcher" }, { id: "coder" }];

  it("lists only the requester when nothing is allowed", async () => {
    const { call } = toolset({ list });
    expect(JSON.parse(text(await call("agents_list")))).toEqual({
      requester: "main",
      allowAny: false,
      agents: [{ id: "main", name: "Main", configured: true }],
    });
  });

  it("lists the requester first, then the allowed agents sorted, marking unconfigured ones", async () => {
    const { call } = toolset({ list, allowAgents: ["zeta", "research", "Coder"] });
    expect((await call("agents_list")).details).toEqual({
      requester: "main",
      allowAny: false,
      agents: [
        { id: "main", name: "Main", configured: true },
        { id: "coder", configured: true },
        { id: "research", name: "Researcher", configured: true },
        { id: "zeta", configured: false },
      ],
    });
  });

  it('"*" allows every configured agent', () => {
    expect(listAgents("research", { list, allowAgents: ["*"] })).toEqual({
      requester: "research",
      allowAny: true,
      agents: [
        { id: "research", name: "Researcher", configured: true },
        { id: "coder", configured: true },
        { id: "main", name: "Main", configured: true },
      ],
    });
  });

  it("reads config.agents from the context, and falls back to config.sessions.allowAgents", async () => {
    const fromAgents = toolset({}, { agentId: "coder", config: { agents: { list, allowAgents: ["main"] } } });
    expect((await fromAgents.call("agents_list")).details).toMatchObject({
      requester: "coder",
      agents: [{ id: "coder" }, { id: "main" }],
    });
    const fromSessions = toolset({ list }, { config: { sessions: { allowAgents: ["research"] } } });
    expect((await fromSessions.call("agents_list")).details).toMatchObject({
      agents: [{ id: "main" }, { id: "research" }],
    });
  });

  it("refuses an unknown configuration key by name", () => {
    expect(() => createAgentsPlugin({ allowAgent: ["x"] } as never)).toThrow(/allowAgent/);
  });
});

describe("update_plan", () => {
  const plan = [
    { step: "read the code", status: "completed" },
    { step: "write the fix", status: "in_progress" },
    { step: "run the tests", status: "pending" },
  ];

  it("answers a short non-empty acknowledgement and the plan in details", async () => {
    const { call } = toolset();
    const r = await call("update_plan", { explanation: "found the bug", plan });
    expect(text(r)).toBe("Plan updated (3 steps): 1 completed, 1 in progress, 1 pending. Now: write the fix");
    expect(r.details).toEqual({ status: "updated", explanation: "found the bug", plan });
    const one = await call("update_plan", {
      plan: [{ step: "ship", status: "completed", note: "extra kept" }],
    });
    expect(text(one)).toBe("Plan updated (1 step): 1 completed, 0 in progress, 0 pending.");
    expect(one.details).toEqual({
      status: "updated",
      plan: [{ step: "ship", status: "completed", note: "extra kept" }],
    });
  });

  it("emits an event an app subscribes to, and keeps the latest plan per session", async () => {
    const { plugin, call } = toolset();
    const seen: PlanEvent[] = [];
    plugin.events.on("plan", (e) => seen.push(e));
    await call("update_plan", { plan });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      status: "updated",
      sessionKey: "agent:main:main",
      agentId: "main",
      plan,
    });
    expect(plugin.planFor("agent:main:main")?.plan).toEqual(plan);
    expect(plugin.planFor("agent:main:other")).toBeUndefined();
  });

  it("refuses a bad plan with OpenClaw's messages", async () => {
    const tool = createUpdatePlanTool(() => {});
    const error = (args: unknown) =>
      tool.execute("c", args as never).then(
        () => "no error",
        (e: Error) => e.message,
      );
    expect(await error({})).toBe("plan required");
    expect(await error({ plan: [] })).toBe("plan required");
    expect(await error({ plan: ["step one"] })).toBe("plan[0] must be an object");
    expect(
      await error({
        plan: [
          { step: "a", status: "pending" },
          { step: "b", status: "done" },
        ],
      }),
    ).toBe("plan[1].status must be one of pending, in_progress, completed");
    expect(
      await error({
        plan: [
          { step: "a", status: "in_progress" },
          { step: "b", status: "in_progress" },
        ],
      }),
    ).toBe("plan can contain at most one in_progress step");
  });

  it("through a toolset a bad plan is an error result naming the problem", async () => {
    const { call } = toolset();
    const r = await call("update_plan", {
      plan: [
        { step: "a", status: "in_progress" },
        { step: "b", status: "in_progress" },
      ],
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("plan can contain at most one in_progress step");
    const missing = await call("update_plan", {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("plan");
  });
});

describe("the plugin", () => {
  it("passes the plugin contract", async () => {
    const report = await checkPluginContract(createAgentsPlugin(), { workspaceDir: "/tmp" });
    expect(report.problems).toEqual([]);
  });
});
