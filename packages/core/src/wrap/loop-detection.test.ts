import { describe, expect, it, vi } from "vitest";
import { createToolset } from "../assemble.js";
import { definePlugin } from "../plugin.js";
import { Type } from "../schema.js";
import type { AgentToolResult, AnyAgentTool } from "../tool.js";
import { LoopDetector } from "./loop-detection.js";
import { wrapTool } from "./wrap-tool.js";

const textOf = (r: AgentToolResult<unknown>) => (r.content[0] as { text: string }).text;

function tool(name: string, answer: (params: Record<string, unknown>) => string): AnyAgentTool {
  return {
    name,
    label: name,
    description: name,
    parameters: Type.Object({ action: Type.Optional(Type.String()), n: Type.Optional(Type.Number()) }),
    execute: async (_id, params) => ({
      content: [{ type: "text", text: answer(params) }],
      details: undefined,
    }),
  };
}

describe("loop detection", () => {
  it("is off unless enabled", async () => {
    const loops = new LoopDetector({ enabled: false });
    const wrapped = wrapTool(
      tool("t", () => "same"),
      { loopDetection: loops },
    );
    for (let i = 0; i < 40; i++) expect((await wrapped.execute(`c${i}`, {})).isError).toBeUndefined();
  });

  it("warns about a repeated call once per bucket of 10, then the circuit breaker blocks it", async () => {
    const warn = vi.fn();
    const loops = new LoopDetector({ enabled: true });
    const execute = vi.fn(
      async (_id: string, _params: unknown): Promise<AgentToolResult<unknown>> => ({
        content: [{ type: "text", text: "same" }],
        details: undefined,
      }),
    );
    const wrapped = wrapTool({ ...tool("t", () => ""), execute }, { loopDetection: loops, warn });
    const results = [];
    for (let i = 0; i < 31; i++) results.push(await wrapped.execute(`c${i}`, { n: 1 }));
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      "WARNING: t called 10 times with identical arguments.",
      "WARNING: t called 20 times with identical arguments.",
    ]);
    // the history holds 30 calls: the 31st identical call with identical results is blocked
    expect(results.at(-1)!.isError).toBe(true);
    expect(textOf(results.at(-1)!)).toContain(
      "CRITICAL: t repeated 30 times with no progress. Blocked by circuit breaker.",
    );
    expect(execute).toHaveBeenCalledTimes(30);
  });

  it("lets a repeated call through when its results change (progress)", async () => {
    const loops = new LoopDetector({ enabled: true });
    let n = 0;
    const wrapped = wrapTool(
      tool("t", () => String(n++)),
      { loopDetection: loops },
    );
    for (let i = 0; i < 45; i++) expect((await wrapped.execute(`c${i}`, { n: 1 })).isError).toBeUndefined();
  });

  it("blocks a poll that keeps returning the same thing at the critical threshold", async () => {
    const warn = vi.fn();
    const loops = new LoopDetector({ enabled: true });
    const poll = wrapTool(
      tool("process", () => "(no new output)\n\nProcess still running."),
      {
        loopDetection: loops,
        warn,
      },
    );
    const results = [];
    for (let i = 0; i < 21; i++) results.push(await poll.execute(`p${i}`, { action: "poll" }));
    expect(warn).toHaveBeenCalledWith("WARNING: process polled 10 times with identical results.");
    expect(results.slice(0, 20).every((r) => !r.isError)).toBe(true);
    expect(textOf(results[20]!)).toContain(
      "CRITICAL: process polled 20 times with no progress. Stuck polling loop.",
    );
  });

  it("blocks two calls alternating without progress", async () => {
    const warn = vi.fn();
    const loops = new LoopDetector({ enabled: true, warningThreshold: 4, criticalThreshold: 6 });
    const a = wrapTool(
      tool("a", () => "A"),
      { loopDetection: loops, warn },
    );
    const b = wrapTool(
      tool("b", () => "B"),
      { loopDetection: loops, warn },
    );
    const outcomes: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push((await a.execute(`a${i}`, {})).isError === true);
      outcomes.push((await b.execute(`b${i}`, {})).isError === true);
    }
    expect(warn.mock.calls.map((c) => c[0])).toContain(
      "WARNING: Alternating tool calls (4 consecutive). Possible ping-pong loop.",
    );
    // a b a b a run; the sixth call, continuing the pattern with no progress, is blocked
    expect(outcomes).toEqual([false, false, false, false, false, true]);
    // blocked calls are not history: continuing the pattern stays blocked
    const again = await b.execute("b9", {});
    expect(textOf(again)).toContain(
      "CRITICAL: Alternating tool calls (6 consecutive) with no progress. Blocked.",
    );
  });

  it("is wired through createToolset, one history for the whole toolset", async () => {
    const warn = vi.fn();
    const plugin = definePlugin({
      id: "loop-test",
      version: "1.0.0",
      tools: [{ name: "spin", factory: () => tool("spin", () => "same") }],
    });
    const set = createToolset({
      plugins: [plugin],
      policy: { global: { allow: ["spin"] } },
      loopDetection: {
        enabled: true,
        warningThreshold: 2,
        criticalThreshold: 3,
        globalCircuitBreakerThreshold: 4,
      },
      warn,
    });
    const spin = set.tools.find((t) => t.name === "spin")!;
    const errors = [];
    for (let i = 0; i < 5; i++) errors.push((await spin.execute(`s${i}`, {})).isError === true);
    expect(errors).toEqual([false, false, false, false, true]);
    expect(warn).toHaveBeenCalledWith("WARNING: spin called 2 times with identical arguments.");
  });
});
