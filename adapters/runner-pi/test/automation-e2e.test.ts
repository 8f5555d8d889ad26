import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AgentToolResult,
  type AnyAgentTool,
  createToolset,
  type ToolContext,
  ToolRegistry,
} from "@clawtools/core";
import { createAutomationPlugin } from "@clawtools/automation";
import { FakeClock } from "@clawtools/automation/testing";
import { createFsPlugin } from "@clawtools/fs";
import { createSessionsPlugin, type SessionsPlugin } from "@clawtools/sessions";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPiRunner } from "../src/runner.js";
import { type ChatRequest, contentText, type Reply, startModelServer } from "./model-server.js";

// The scripted model: a task naming a file reads it through the real `read` tool, then reports it.
function script(request: ChatRequest): Reply {
  const last = request.messages.at(-1)!;
  if (last.role === "tool") return { text: `The note says: ${contentText(last.content).trim()}` };
  const task = contentText([...request.messages].reverse().find((m) => m.role === "user")?.content);
  const file = /READ<(.+?)>/.exec(task);
  if (file) return { toolCall: { name: "read", arguments: { path: file[1] } } };
  return { text: "Nothing to do." };
}

let model: Awaited<ReturnType<typeof startModelServer>>;
let workspace: string;
beforeAll(async () => {
  model = await startModelServer(script);
  workspace = mkdtempSync(path.join(tmpdir(), "cron-ws-"));
  writeFileSync(path.join(workspace, "notes.txt"), "deploy window opens at 14:00\n");
});
afterAll(() => model?.close());

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

const text = (r: AgentToolResult<unknown>) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/**
 * One sessions section on the pi runner (sub-agents get the real fs tools), and the automation
 * section wired to the same store and runner: what an app does to let cron run agent turns.
 */
function setup(clock?: FakeClock) {
  const stateDir = mkdtempSync(path.join(tmpdir(), "cron-state-"));
  const ctx: ToolContext = {
    workspaceDir: workspace,
    stateDir,
    agentId: "main",
    sessionKey: "agent:main:main",
  };
  const sessions: SessionsPlugin = createSessionsPlugin({
    runner: ({ store }) =>
      createPiRunner({
        store,
        model: { model: "openai/scripted", baseUrl: model.baseUrl, apiKey: "sk-loopback" },
        tools: (sessionKey) => {
          const registry = new ToolRegistry();
          registry.registerPlugin(createFsPlugin());
          const set = createToolset({
            registry,
            context: { ...ctx, sessionKey },
            policy: { profile: "coding" },
            senderIsOwner: false,
          });
          return { tools: set.tools, dispose: () => set.dispose() };
        },
      }),
  });
  const service = sessions.serviceFor(ctx);
  const automation = createAutomationPlugin({
    sessions: service.store,
    runner: service.runner!,
    ...(clock ? { clock } : {}),
  });
  const set = createToolset({
    plugins: [sessions, automation],
    context: ctx,
    policy: { profile: "full" },
    senderIsOwner: true,
  });
  disposers.push(() => set.dispose());
  const tool = (name: string) => set.tools.find((t) => t.name === name) as AnyAgentTool;
  const call = async (name: string, args: Record<string, unknown>) =>
    JSON.parse(text((await tool(name).execute("c", args)) as AgentToolResult<unknown>));
  return { call, service, automation, ctx, stateDir };
}

const completionEvents = (messages: Array<{ role: string; content: unknown }>) =>
  messages
    .map((m) => (typeof m.content === "string" ? m.content : ""))
    .filter((c) => c.includes("[Internal task completion event]"));

describe("cron agentTurn jobs on the pi-agent-core runner against a loopback model", () => {
  it("`run`: the sub-agent reads a file with the real read tool, completes, and its result is announced into the session that made the job", async () => {
    const { call, service, automation, ctx } = setup();
    const added = await call("cron", {
      action: "add",
      job: {
        name: "deploy-check",
        schedule: { kind: "every", everyMs: 3_600_000 },
        payload: { kind: "agentTurn", message: "READ<notes.txt>" },
      },
    });
    expect(added).toMatchObject({
      sessionTarget: "isolated",
      delivery: { mode: "announce" },
      sessionKey: "agent:main:main",
    });
    // run enqueues and answers at once (as OpenClaw's cron.run); the outcome shows in runs
    const ran = await call("cron", { action: "run", jobId: added.id });
    expect(ran).toEqual({ ok: true, enqueued: true, runId: expect.any(String) });
    await (await automation.cronService(ctx)).idle();

    // the run log: status ok, the sub-agent's reply, delivered, in the run's own isolated session
    const runs = await call("cron", { action: "runs", jobId: added.id });
    expect(runs.entries).toHaveLength(1);
    const [entry] = runs.entries;
    expect(entry).toMatchObject({
      jobId: added.id,
      action: "finished",
      status: "ok",
      summary: "The note says: deploy window opens at 14:00",
      delivered: true,
      deliveryStatus: "delivered",
    });
    expect(entry.sessionKey).toMatch(new RegExp(`^agent:main:cron:${added.id}:run:[0-9a-f-]+$`));

    // the sub-agent's transcript holds the real tool call and the file's content
    const child = await service.store.history(entry.sessionKey);
    expect(child.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(JSON.stringify(child[2]!.content)).toContain("deploy window opens at 14:00");
    const turn = model.requests.find((r) => contentText(r.messages.at(-1)?.content) === "READ<notes.txt>");
    expect(turn?.tools?.map((t) => t.function.name)).toContain("read");

    // the announce: OpenClaw's internal completion event, source cron, in the main session's transcript
    const [event, ...more] = completionEvents(
      (await call("sessions_history", { sessionKey: "main" })).messages,
    );
    expect(more).toEqual([]);
    const childEntry = await service.store.get(entry.sessionKey);
    expect(event!.split("\n").slice(0, 8)).toEqual([
      "OpenClaw runtime context (internal):",
      "[Internal task completion event]",
      "source: cron",
      `session_key: ${entry.sessionKey}`,
      `session_id: ${childEntry!.sessionId}`,
      "type: cron job",
      "task: deploy-check",
      "status: completed successfully",
    ]);
    expect(event).toContain(
      "<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>\nThe note says: deploy window opens at 14:00\n<<<END_UNTRUSTED_CHILD_RESULT>>>",
    );
    const [stored] = (await service.store.history("agent:main:main")).filter((m) => m.role === "user");
    expect(stored).toMatchObject({ role: "user", internal: { kind: "completion" } });
  });

  it("a job due now fires from the scheduler (injected clock) through the real runner, and the tool's error reaches the model", async () => {
    const clock = new FakeClock(Date.now());
    const { call, automation, ctx } = setup(clock);
    const added = await call("cron", {
      action: "add",
      job: {
        name: "missing-file",
        schedule: { kind: "at", at: new Date(clock.now() + 60_000).toISOString() },
        payload: { kind: "agentTurn", message: "READ<nope.txt>" },
        // kept (a one-shot is otherwise deleted after a successful run, its log with it)
        deleteAfterRun: false,
      },
    });
    const cron = await automation.cronService(ctx);
    await clock.advance(60_000, () => cron.idle());
    const runs = await call("cron", { action: "runs", jobId: added.id });
    // the tool error goes back to the model, which answers: the turn itself completes
    expect(runs.entries[0]).toMatchObject({
      status: "ok",
      runAtMs: clock.now(),
      deliveryStatus: "delivered",
    });
    expect(runs.entries[0].summary).toContain(
      '"error": "File not found: nope.txt. Did you mean: notes.txt?"',
    );
    const [event] = completionEvents((await call("sessions_history", { sessionKey: "main" })).messages);
    expect(event).toContain("type: cron job\ntask: missing-file\nstatus: completed successfully\n");
    // a finished one-shot is disabled
    expect((await call("cron", { action: "list", includeDisabled: true })).jobs[0]).toMatchObject({
      id: added.id,
      enabled: false,
    });
  });
});
