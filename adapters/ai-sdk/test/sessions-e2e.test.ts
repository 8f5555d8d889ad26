import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  type AgentToolResult,
  type AnyAgentTool,
  createToolset,
  jsonResult,
  type ToolContext,
  ToolRegistry,
  Type,
} from "@clawtools/core";
import { createRuntimePlugin } from "@clawtools/runtime";
import {
  BEGIN_CHILD,
  createSessionsPlugin,
  type SessionStore,
  type SessionsPlugin,
} from "@clawtools/sessions";
import { generateText, stepCountIs, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAiSdkRunner } from "../src/runner.js";
import { toAiSdkTools } from "../src/tools.js";
import { type ChatRequest, contentText, type Reply, startModelServer } from "./model-server.js";

const lastUser = (r: ChatRequest) =>
  contentText([...r.messages].reverse().find((m) => m.role === "user")?.content);

// The scripted model: a task naming a command runs it through exec; a tool result is reported back.
function script(request: ChatRequest): Reply {
  const last = request.messages.at(-1)!;
  if (last.role === "tool") return { text: `Child done: ${contentText(last.content).trim()}` };
  const task = lastUser(request);
  const run = /RUN<(.+?)>/.exec(task);
  if (run) return { toolCall: { name: "exec", arguments: { command: run[1], timeout: 120 } } };
  const call = /CALL<(\w+)>(\{.*\})/.exec(task);
  if (call) return { toolCall: { name: call[1]!, arguments: JSON.parse(call[2]!) } };
  return { text: "Nothing to do." };
}

let server: Awaited<ReturnType<typeof startModelServer>>;
let workspace: string;
beforeAll(async () => {
  server = await startModelServer(script);
  workspace = mkdtempSync(path.join(tmpdir(), "aisdk-ws-"));
});
afterAll(() => server?.close());

const provider = () =>
  createOpenAICompatible({ name: "loopback", baseURL: server.baseUrl, apiKey: "sk-loopback" });
const json = (r: AgentToolResult<unknown>) =>
  JSON.parse(r.content.map((c) => (c.type === "text" ? c.text : "")).join(""));

describe("toAiSdkTools", () => {
  const echo: AnyAgentTool = {
    name: "echo",
    label: "Echo",
    description: "Echo a word back",
    parameters: Type.Object({ word: Type.String() }, { additionalProperties: false }),
    async execute(_id, p: { word: string }, signal) {
      if (p.word === "fail")
        return { content: [{ type: "text", text: "echo failed: no such word" }], details: {}, isError: true };
      return jsonResult({ echoed: p.word, aborted: signal?.aborted ?? null });
    },
  };

  it("gives generateText the tool's schema, runs it, and maps its result and its error", async () => {
    const tools = toAiSdkTools([echo]);
    expect(Object.keys(tools)).toEqual(["echo"]);
    const ok = await generateText({
      model: provider().chatModel("scripted"),
      prompt: 'CALL<echo>{"word":"hello"}',
      tools,
      stopWhen: stepCountIs(3),
      abortSignal: new AbortController().signal,
    });
    const sent = server.requests.at(-2)!;
    expect(sent.tools?.[0]?.function).toMatchObject({
      name: "echo",
      parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    });
    // the model read the tool's text output, and the run's abort signal reached the tool
    expect(ok.text).toBe('Child done: {\n  "echoed": "hello",\n  "aborted": false\n}');
    const bad = await generateText({
      model: provider().chatModel("scripted"),
      prompt: 'CALL<echo>{"word":"fail"}',
      tools,
      stopWhen: stepCountIs(3),
    });
    expect(bad.steps[0]!.content.find((c) => c.type === "tool-error")).toMatchObject({
      toolName: "echo",
      error: expect.objectContaining({ message: "echo failed: no such word" }),
    });
    expect(bad.text).toBe("Child done: echo failed: no such word");
  });

  it("works with streamText too (the loopback model streams when asked)", async () => {
    const result = streamText({
      model: provider().chatModel("scripted"),
      prompt: 'CALL<echo>{"word":"streamed"}',
      tools: toAiSdkTools([echo]),
      stopWhen: stepCountIs(3),
      abortSignal: new AbortController().signal,
    });
    expect(await result.text).toBe('Child done: {\n  "echoed": "streamed",\n  "aborted": false\n}');
    expect(server.requests.at(-1)!.stream).toBe(true);
  });

  it("an aborted call stops the tool", async () => {
    const tools = toAiSdkTools([echo]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      tools.echo!.execute!({ word: "x" }, { toolCallId: "c", messages: [], abortSignal: controller.signal }),
    ).resolves.toMatchObject({ details: { echoed: "x", aborted: true } });
  });
});

describe("sub-agents on the AI SDK runner against a loopback model", () => {
  it("spawn → the child runs exec for real → completes → the announce lands in the parent → history shows it", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "aisdk-state-"));
    let sessions: SessionsPlugin;
    const runner = (deps: { store: SessionStore }) =>
      createAiSdkRunner({
        store: deps.store,
        model: provider().chatModel("scripted"),
        tools: (sessionKey) => {
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
    sessions = createSessionsPlugin({ runner });
    const ctx: ToolContext = { workspaceDir: workspace, stateDir, agentId: "main", sessionKey: "main" };
    const set = createToolset({
      plugins: [sessions],
      context: ctx,
      policy: { profile: "full" },
      senderIsOwner: true,
    });
    const call = async (name: string, args: Record<string, unknown>) =>
      json(await set.tools.find((t) => t.name === name)!.execute("c", args));
    const service = sessions.serviceFor(ctx);

    const spawned = await call("sessions_spawn", { task: "RUN<echo ai-sdk-child>", label: "aisdk" });
    expect(spawned).toMatchObject({ status: "accepted", mode: "run" });
    await service.idle();
    const history = await call("sessions_history", { sessionKey: "main" });
    const event = history.messages.find(
      (m: { content: unknown }) =>
        typeof m.content === "string" && m.content.includes("[Internal task completion event]"),
    );
    expect(event.content).toContain(`session_key: ${spawned.childSessionKey}`);
    expect(event.content).toContain("status: completed successfully");
    expect(event.content).toContain(`${BEGIN_CHILD}\nChild done: ai-sdk-child`);
    const child = await call("sessions_history", { sessionKey: spawned.childSessionKey, includeTools: true });
    expect(child.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(child.messages[1].content[0]).toMatchObject({ type: "toolCall", name: "exec" });
    expect(child.messages[2]).toMatchObject({ toolName: "exec", isError: false });
    expect(child.messages[2].content[0].text).toContain("ai-sdk-child");
    expect(await call("subagents", {})).toMatchObject({
      recent: [{ label: "aisdk", status: "done", announce: "delivered" }],
    });
    // the sub-agent context reached the model as the run's first user message
    const first = server.requests.find((r) => lastUser(r).includes("RUN<echo ai-sdk-child>"))!;
    expect(lastUser(first)).toMatch(/^\[Subagent Context\] You are running as a subagent \(depth 1\/1\)/);
    await set.dispose();
  });
});
