import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createToolset, ToolRegistry } from "@clawtools/core";
import { createSessionsPlugin, FileSessionStore, type SessionsPlugin } from "@clawtools/sessions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAiSdkRunner } from "../src/runner.js";
import { type ChatRequest, contentText, startModelServer } from "./model-server.js";

// sessions_yield on the AI SDK runner (issue 28): the run's turn ends after the step that yielded.

let server: Awaited<ReturnType<typeof startModelServer>>;
beforeAll(async () => {
  // a run calls sessions_yield first; any later step would answer "kept going"
  server = await startModelServer((r: ChatRequest) =>
    r.messages.at(-1)?.role === "tool"
      ? { text: "kept going" }
      : { toolCall: { name: "sessions_yield", arguments: { message: "waiting" } } },
  );
});
afterAll(() => server?.close());

describe("createAiSdkRunner and sessions_yield", () => {
  it("offers yield inside its run, ends the turn after it (no further model call), outcome yielded", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "aisdk-yield-"));
    const store = new FileSessionStore(stateDir);
    const provider = createOpenAICompatible({
      name: "loopback",
      baseURL: server.baseUrl,
      apiKey: "sk-loopback",
    });
    let sessions: SessionsPlugin;
    const runner = createAiSdkRunner({
      store,
      model: provider.chatModel("scripted"),
      tools: (sessionKey) => {
        const registry = new ToolRegistry();
        registry.registerPlugin(sessions);
        const set = createToolset({ registry, context: { stateDir, sessionKey, agentId: "main" } });
        return { tools: set.tools, dispose: () => set.dispose() };
      },
    });
    sessions = createSessionsPlugin({ store, runner });
    expect(runner.canYield?.("agent:main:main")).toBe(false);
    await store.create({ key: "agent:main:main", agentId: "main" });
    const before = server.requests.length;
    const { runId } = await runner.start({ sessionKey: "agent:main:main", message: "go" });
    expect(await runner.wait(runId, 30_000)).toEqual({ status: "ok", reply: "waiting", yielded: true });
    const mine = server.requests.slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.tools?.map((t) => t.function.name)).toContain("sessions_yield");
    const history = await store.history("agent:main:main");
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(contentText(history[2]!.content as never)).toContain('"status": "yielded"');
    expect(runner.canYield?.("agent:main:main")).toBe(false);
  });
});
