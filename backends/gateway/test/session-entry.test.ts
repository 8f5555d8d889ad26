import { describe, expect, it } from "vitest";
import { injectableText, toSessionEntry, toTranscript } from "../src/session-entry.js";
import { chatCompletionsProblems } from "../src/testing/openai-fake.js";

describe("Gateway session rows as SessionEntries", () => {
  it("keeps an operator-made session top-level, with no model of its own", () => {
    // what 9.6's sessions.describe answered for a session made with sessions.create
    const entry = toSessionEntry({
      key: "agent:main:probe",
      sessionId: "s-1",
      agentId: "main",
      createdAt: 10,
      updatedAt: 20,
      label: "probe",
      spawnDepth: 0,
      parentSessionKey: "agent:main:main",
      modelProvider: "fake",
      model: "echo-1",
      modelOverrideSource: null,
      status: "done",
      startedAt: 11,
      endedAt: 19,
    });
    expect(entry).toEqual({
      key: "agent:main:probe",
      sessionId: "s-1",
      agentId: "main",
      createdAt: 10,
      updatedAt: 20,
      depth: 0,
      label: "probe",
      status: "done",
      startedAt: 11,
      endedAt: 19,
    });
  });

  it("never has an entry updated before it was created (9.6 stamps updatedAt a few ms early)", () => {
    const entry = toSessionEntry({
      key: "agent:main:a",
      sessionId: "s",
      createdAt: 1_000_005,
      updatedAt: 1_000_000,
    });
    expect(entry).toMatchObject({ createdAt: 1_000_005, updatedAt: 1_000_005 });
    expect(toSessionEntry({ key: "agent:main:b", updatedAt: 7 })).toMatchObject({
      createdAt: 7,
      updatedAt: 7,
    });
  });

  it("reads a spawned session's parent, an override model and the Gateway's status names", () => {
    const entry = toSessionEntry({
      key: "agent:ops:subagent:x",
      spawnDepth: 1,
      parentSessionKey: "agent:ops:main",
      modelProvider: "fake",
      model: "echo-1",
      modelOverrideSource: "user",
      status: "aborted",
    });
    expect(entry).toMatchObject({
      agentId: "ops",
      depth: 1,
      spawnedBy: "agent:ops:main",
      parentSessionKey: "agent:ops:main",
      model: "fake/echo-1",
      status: "killed",
    });
    expect(toSessionEntry({ key: "agent:a:b", status: "something-new" }).status).toBeUndefined();
  });

  it("drops the Gateway's bookkeeping and roles the transcript type does not have", () => {
    const messages = toTranscript([
      { role: "assistant", content: [{ type: "text", text: "hi" }], timestamp: 5, __openclaw: { seq: 1 } },
      { role: "system", content: "not a transcript role", timestamp: 6 },
      null,
      { role: "user", content: "hello" },
    ]);
    expect(messages).toEqual([
      { role: "assistant", content: [{ type: "text", text: "hi" }], timestamp: 5 },
      { role: "user", content: "hello", timestamp: 0 },
    ]);
    expect(toTranscript({ not: "an array" })).toEqual([]);
  });

  it("injects assistant text only", () => {
    expect(injectableText({ role: "assistant", content: "a", timestamp: 1 })).toEqual({ text: "a" });
    expect(
      injectableText({
        role: "assistant",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
        timestamp: 1,
      }),
    ).toEqual({ text: "a\nb" });
    expect(injectableText({ role: "user", content: "a", timestamp: 1 })).toHaveProperty("refused");
    expect(injectableText({ role: "assistant", content: "", timestamp: 1 })).toEqual({
      refused: "the message is empty",
    });
    expect(
      injectableText({
        role: "assistant",
        content: "x",
        timestamp: 1,
        internal: { kind: "completion", runId: "r" },
      }),
    ).toHaveProperty("refused");
    expect(
      injectableText({
        role: "assistant",
        content: [{ type: "toolCall", id: "t", name: "n", arguments: {} }],
        timestamp: 1,
      }),
    ).toEqual({ refused: "it writes text only, not a toolCall block" });
  });
});

describe("the fake model's wire-format check", () => {
  it("accepts a chat-completions request and names what is wrong with a bad one", () => {
    expect(
      chatCompletionsProblems({
        model: "m",
        stream: true,
        messages: [
          { role: "system", content: "s" },
          { role: "user", content: [{ type: "text", text: "u" }] },
          { role: "assistant", content: null, tool_calls: [] },
        ],
        tools: [{ type: "function", function: { name: "read", parameters: {} } }],
      }),
    ).toEqual([]);
    expect(chatCompletionsProblems([])).toEqual(["the body is not a JSON object"]);
    expect(
      chatCompletionsProblems({
        model: "",
        messages: [{ role: "robot", content: 1 }],
        stream: "yes",
        tools: [{}],
      }),
    ).toEqual([
      "model is not a non-empty string",
      "messages[0].role is not a chat role",
      "messages[0].content is neither a string nor content parts",
      "stream is not a boolean",
      'tools[0] is not {type:"function", function:{name, …}}',
    ]);
  });
});
