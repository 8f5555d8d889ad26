import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AgentToolResult,
  type AnyAgentTool,
  createToolset,
  type ToolContext,
  ToolRegistry,
} from "@clawtools/core";
import { BEGIN_CHILD, createSessionsPlugin, noLiveRun, type SessionsPlugin } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatRequest, contentText, type Reply, startModelServer } from "../model-server.js";
import type { MakeRunner, SharedSuiteOptions } from "./runner-factory.js";

// sessions_yield on the pi-agent-core runner (issue 28): a sub-agent that spawned its own child
// yields; its turn ends with no further model call, and the child's completion event starts its
// next turn, whose answer is the one announced to the top-level session. Run twice: as above, and
// with the parent's model slow to call the yield, so the child's completion event is steered into
// the running turn before the yield ends it (the race CI met).

const YIELD_RESUMED = "[sessions_yield] A sub-agent result arrived";
const userTexts = (r: ChatRequest) =>
  r.messages.filter((m) => m.role === "user").map((m) => contentText(m.content));

/** How long the parent's model takes to call the yield (the second run makes the child win). */
let yieldDelayMs = 0;

function script(request: ChatRequest): Reply | Promise<Reply> {
  const last = request.messages.at(-1)!;
  const users = userTexts(request);
  const text = contentText(last.content);
  if (users.some((u) => u.includes("[Subagent Task]: GRANDCHILD"))) return { text: "grandchild-result-42" };
  // the child's result arrives as the resume message, or (when the child ends before the yield
  // does) as its completion event steered into the same turn: either way the model answers with it
  if (last.role === "user" && (text.startsWith(YIELD_RESUMED) || text.includes("grandchild-result-42"))) {
    const event = users.find((u) => u.includes("grandchild-result-42"));
    return { text: event ? "final: saw grandchild-result-42" : "final: nothing arrived" };
  }
  if (last.role === "tool" && text.includes('"accepted"'))
    return new Promise((r) =>
      setTimeout(() => r({ toolCall: { name: "sessions_yield", arguments: {} } }), yieldDelayMs),
    );
  if (last.role === "tool") return { text: `unexpected tool result: ${text.slice(0, 80)}` };
  if (users.at(-1)?.includes("[Subagent Task]: PARENT"))
    return { toolCall: { name: "sessions_spawn", arguments: { task: "GRANDCHILD" } } };
  return { text: "Nothing to do." };
}

/** sessions_yield's e2e for a pi-style runner; each runner's test file calls this with its own factory. */
export function describeYieldE2e(makeRunner: MakeRunner, suite: SharedSuiteOptions): void {
  describe.skipIf(suite.skip ?? false)(suite.title, () => {
    let model: Awaited<ReturnType<typeof startModelServer>>;
    beforeAll(async () => {
      model = await startModelServer(script);
    });
    afterAll(() => model?.close());

    it.each([
      ["the yield ends the turn before the child answers", 0],
      ["the child ends before the yield does", 1500],
    ])(
      "is offered inside a run, not to a session whose loop is the app's; a yielded sub-agent resumes with its child's result (%s)",
      async (_case, delay) => {
        yieldDelayMs = delay;
        model.requests.length = 0;
        const workspace = mkdtempSync(path.join(tmpdir(), "yield-ws-"));
        const stateDir = mkdtempSync(path.join(tmpdir(), "yield-state-"));
        let sessions: SessionsPlugin;
        const config = { sessions: { maxSpawnDepth: 2 } };
        sessions = createSessionsPlugin({
          runner: ({ store }) =>
            makeRunner({
              store,
              model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
              tools: (sessionKey) => {
                const registry = new ToolRegistry();
                registry.registerPlugin(sessions);
                const set = createToolset({
                  registry,
                  context: { workspaceDir: workspace, stateDir, sessionKey, agentId: "main", config },
                  policy: { profile: "full" },
                });
                return { tools: set.tools, dispose: () => set.dispose() };
              },
            }),
        });
        const ctx: ToolContext = {
          workspaceDir: workspace,
          stateDir,
          agentId: "main",
          sessionKey: "main",
          config,
        };
        const set = createToolset({ plugins: [sessions], context: ctx, policy: { profile: "full" } });
        // the top-level session's turns are the app's own: yield is left out, saying why
        expect(set.tools.map((t) => t.name)).not.toContain("sessions_yield");
        expect(set.diagnostics.find((d) => d.toolId === "sessions_yield")?.reason).toBe(
          noLiveRun("agent:main:main"),
        );

        const tool = (name: string) => set.tools.find((t) => t.name === name) as AnyAgentTool;
        const json = (r: AgentToolResult<unknown>) => JSON.parse((r.content[0] as { text: string }).text);
        const spawned = json(await tool("sessions_spawn").execute("c", { task: "PARENT", label: "parent" }));
        expect(spawned.status).toBe("accepted");
        const service = sessions.serviceFor(ctx);
        await service.idle();

        // the sub-agent was offered yield and called it; after it, the model is called only once a
        // child's result is there (the resume message, or the completion event when the child ended first)
        const parentFirst = model.requests.find((r) =>
          userTexts(r).at(-1)?.includes("[Subagent Task]: PARENT"),
        );
        expect(parentFirst?.tools?.map((t) => t.function.name)).toContain("sessions_yield");
        const afterYield = model.requests.filter((r) =>
          r.messages.some((m) => m.role === "tool" && contentText(m.content).includes('"yielded"')),
        );
        expect(afterYield.length).toBeGreaterThan(0);
        for (const request of afterYield) {
          expect(request.messages.at(-1)?.role).toBe("user");
          const resumedWith = userTexts(request).at(-1) ?? "";
          expect(resumedWith.startsWith(YIELD_RESUMED) || resumedWith.includes("grandchild-result-42")).toBe(
            true,
          );
        }

        // the top-level session got one completion event: the resumed turn's answer
        const events = (await service.store.history("agent:main:main"))
          .map((m) => String(m.content))
          .filter((c) => c.includes("[Internal task completion event]"));
        expect(events).toHaveLength(1);
        expect(events[0]).toContain(`${BEGIN_CHILD}\nfinal: saw grandchild-result-42`);
        expect((await service.runs.get(spawned.runId))?.status).toBe("done");
        await set.dispose();
      },
    );
  });
}
