import { execSync } from "node:child_process";
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
import { delay } from "@clawtools/core/time";
import { createRuntimePlugin } from "@clawtools/runtime";
import {
  BEGIN_CHILD,
  createSessionsPlugin,
  type SessionsPlugin,
  type SessionsPluginOptions,
} from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatRequest, contentText, type Reply, startModelServer } from "../model-server.js";
import type { MakeRunner, SharedSuiteOptions } from "./runner-factory.js";

const lastUser = (r: ChatRequest) =>
  contentText([...r.messages].reverse().find((m) => m.role === "user")?.content);
const lastMessage = (r: ChatRequest) => r.messages.at(-1)!;

// The scripted model: a task naming a command runs it through exec; a tool result is reported back.
function script(request: ChatRequest): Reply {
  const last = lastMessage(request);
  if (last.role === "tool") return { text: `Child done: ${contentText(last.content).trim()}` };
  const task = lastUser(request);
  const run = /RUN<(.+?)>/.exec(task);
  if (run) return { toolCall: { name: "exec", arguments: { command: run[1], timeout: 120 } } };
  if (task.startsWith("PING")) return { text: `PONG to "${task}"` };
  return { text: "Nothing to do." };
}

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const json = (r: AgentToolResult<unknown>) => JSON.parse(text(r));

/**
 * The sub-agent e2e every pi-style runner passes (exec children, send, kill cascade, limits),
 * against a scripted loopback model; each runner's test file calls this with its own factory.
 */
export function describeSessionsE2e(makeRunner: MakeRunner, suite: SharedSuiteOptions): void {
  describe.skipIf(suite.skip ?? false)(suite.title, () => {
    let model: Awaited<ReturnType<typeof startModelServer>>;
    let workspace: string;
    beforeAll(async () => {
      model = await startModelServer(script);
      workspace = mkdtempSync(path.join(tmpdir(), "sess-ws-"));
    });
    afterAll(() => model?.close());

    function setup(config: SessionsPluginOptions = {}) {
      const stateDir = mkdtempSync(path.join(tmpdir(), "sess-state-"));
      let sessions: SessionsPlugin;
      const runner = (deps: { store: import("@clawtools/sessions").SessionStore }) =>
        makeRunner({
          store: deps.store,
          model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
          // each child runs real clawtools tools (exec), in a toolset of its own that dies with the run
          tools: (sessionKey) => {
            // the shared sessions plugin comes through a registry (the caller's to dispose); the
            // child's own runtime plugin is the toolset's, so disposing it kills the child's processes
            const registry = new ToolRegistry();
            registry.registerPlugin(sessions);
            const set = createToolset({
              registry,
              plugins: [createRuntimePlugin({ exec: { security: "full", ask: "off" } })],
              context: { workspaceDir: workspace, stateDir, sessionKey, agentId: "main" },
              policy: { profile: "full" },
              senderIsOwner: true,
            });
            return { tools: set.tools, dispose: () => set.dispose() };
          },
        });
      sessions = createSessionsPlugin({ ...config, runner });
      const ctx: ToolContext = { workspaceDir: workspace, stateDir, agentId: "main", sessionKey: "main" };
      const set = createToolset({
        plugins: [sessions],
        context: ctx,
        policy: { profile: "full" },
        senderIsOwner: true,
      });
      const tool = (name: string) => set.tools.find((t) => t.name === name) as AnyAgentTool;
      const call = async (name: string, args: Record<string, unknown>) =>
        (await tool(name).execute("c", args)) as AgentToolResult<any>;
      return { sessions, set, call, stateDir, service: sessions.serviceFor(ctx) };
    }

    it("spawn → the child runs exec for real → completes → the announce lands in the parent → history shows it", async () => {
      const { call, service } = setup();
      const spawned = json(
        await call("sessions_spawn", { task: "RUN<echo child-was-here>", label: "echoer" }),
      );
      expect(spawned).toMatchObject({ status: "accepted", mode: "run" });
      expect(spawned.note).toMatch(/^Auto-announce is push-based/);
      await service.idle();
      const history = json(await call("sessions_history", { sessionKey: "main" }));
      const event = history.messages.find(
        (m: { content: string }) =>
          typeof m.content === "string" && m.content.includes("[Internal task completion event]"),
      );
      expect(event.content).toContain(`session_key: ${spawned.childSessionKey}`);
      expect(event.content).toContain("status: completed successfully");
      expect(event.content).toContain(`${BEGIN_CHILD}\nChild done: child-was-here`);
      // the child's own transcript holds the real tool call and its output
      const child = json(
        await call("sessions_history", { sessionKey: spawned.childSessionKey, includeTools: true }),
      );
      expect(child.messages.map((m: { role: string }) => m.role)).toEqual([
        "user",
        "assistant",
        "toolResult",
        "assistant",
      ]);
      const list = json(await call("subagents", {}));
      expect(list.recent[0]).toMatchObject({ label: "echoer", status: "done", announce: "delivered" });
      const sessionsList = json(await call("sessions_list", {}));
      expect(
        sessionsList.sessions.find((s: { key: string }) => s.key === spawned.childSessionKey),
      ).toMatchObject({
        status: "done",
        announce: { status: "delivered" },
        label: "echoer",
      });
    });

    it("sessions_send waits for the reply, or returns at once with timeoutSeconds 0", async () => {
      const { call, service } = setup({ visibility: "agent" });
      await service.ensure("agent:main:helper", "main");
      await service.store.patch("agent:main:helper", { label: "helper" });
      const sent = json(await call("sessions_send", { label: "helper", message: "PING one" }));
      expect(sent).toMatchObject({
        status: "ok",
        reply: 'PONG to "PING one"',
        sessionKey: "agent:main:helper",
        delivery: { status: "pending", mode: "announce" },
      });
      const fire = json(
        await call("sessions_send", {
          sessionKey: "agent:main:helper",
          message: "PING two",
          timeoutSeconds: 0,
        }),
      );
      expect(fire).toMatchObject({ status: "accepted", sessionKey: "agent:main:helper" });
      expect(json(await call("sessions_send", { sessionKey: "a", label: "b", message: "x" })).error).toBe(
        "Provide either sessionKey or label (not both).",
      );
      expect(json(await call("sessions_send", { label: "nobody", message: "x" })).error).toBe(
        "No session found with label: nobody",
      );
    });

    it("kill cascades to the run's exec processes: nothing is left running", async () => {
      const { call, service } = setup();
      const marker = `clawtools-kill-${process.pid}-${Date.now()}`;
      const spawned = json(
        await call("sessions_spawn", { task: `RUN<sleep 300; echo ${marker}>`, label: "sleeper" }),
      );
      // wait until the child's exec process is up
      const running = () => {
        try {
          // [c] keeps pgrep's own shell, whose command line holds the pattern, from matching
          return (
            execSync(`pgrep -f "[c]${marker.slice(1)}"`)
              .toString()
              .trim().length > 0
          );
        } catch {
          return false;
        }
      };
      // up to 60 s: a sub-agent turn and its exec are process starts (seconds on a loaded CI machine)
      for (let i = 0; i < 600 && !running(); i++) await delay(100);
      expect(running()).toBe(true);
      const killed = json(await call("subagents", { action: "kill", target: "sleeper" }));
      expect(killed).toMatchObject({ status: "ok", runId: spawned.runId, text: "killed sleeper." });
      // polls until the process is gone (up to 30 s), not a fixed sleep before asserting
      for (let i = 0; i < 300 && running(); i++) await delay(100);
      expect(running()).toBe(false);
      expect((await service.runs.get(spawned.runId))?.status).toBe("killed");
      expect(json(await call("subagents", { action: "kill", target: "sleeper" })).text).toBe(
        "sleeper is already finished.",
      );
    });

    it("enforces depth and children limits with OpenClaw's messages", async () => {
      const { call, service, stateDir } = setup({ maxChildrenPerAgent: 1 });
      const first = json(await call("sessions_spawn", { task: "RUN<sleep 5>", label: "busy" }));
      expect(first.status).toBe("accepted");
      const second = json(await call("sessions_spawn", { task: "PING", label: "extra" }));
      expect(second).toEqual({
        status: "forbidden",
        error: "sessions_spawn has reached max active children for this session (1/1)",
      });
      await call("subagents", { action: "kill", target: "busy" });
      // a sub-agent (depth 1) may not spawn at the default max depth 1
      const childSet = createToolset({
        plugins: [createSessionsPlugin({ runner: service.runner! })],
        context: { workspaceDir: workspace, stateDir, agentId: "main", sessionKey: first.childSessionKey },
        policy: { profile: "full" },
        senderIsOwner: true,
      });
      const nested = await childSet.tools
        .find((t) => t.name === "sessions_spawn")!
        .execute("c", { task: "x" });
      expect(json(nested)).toEqual({
        status: "forbidden",
        error: "sessions_spawn is not allowed at this depth (current depth: 1, max: 1)",
      });
      expect(json(await call("sessions_spawn", { task: "x", channel: "telegram" })).error).toBe(
        'sessions_spawn does not support "channel". Use "message" or "sessions_send" for channel delivery.',
      );
    });
  });
}
