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

  it("re-reading an unchanged file: warnings at 10 and 20, then OpenClaw's global breaker at 30", async () => {
    const warn = vi.fn();
    const loops = new LoopDetector({ enabled: true });
    const execute = vi.fn(
      async (_id: string, _params: unknown): Promise<AgentToolResult<unknown>> => ({
        content: [{ type: "text", text: "same output" }],
        details: { ok: true },
      }),
    );
    const read = wrapTool({ ...tool("read", () => ""), execute }, { loopDetection: loops, warn });
    const results = [];
    for (let i = 0; i < 31; i++) results.push(await read.execute(`c${i}`, { n: 1 }));
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      "WARNING: You have called read 10 times with identical arguments. If this is not making progress, stop retrying and report the task as failed.",
      "WARNING: You have called read 20 times with identical arguments. If this is not making progress, stop retrying and report the task as failed.",
    ]);
    // the 21st identical read runs (OpenClaw: generic repeats are warn-only below the breaker)
    expect(results.slice(0, 30).every((r) => !r.isError)).toBe(true);
    expect(results[30]!.isError).toBe(true);
    expect(textOf(results[30]!)).toContain(
      "CRITICAL: read has repeated identical no-progress outcomes 30 times. Session execution blocked by global circuit breaker to prevent runaway loops.",
    );
    expect(execute).toHaveBeenCalledTimes(30);
  });

  it("names the detector and level of each verdict as OpenClaw does", () => {
    const loops = new LoopDetector({ enabled: true });
    const verdicts = [];
    for (let i = 0; i < 31; i++) {
      verdicts.push(loops.observe("read", { path: "/same.txt" }, `c${i}`));
      loops.recordOutcome(`c${i}`, { content: [{ type: "text", text: "same output" }] });
    }
    expect(verdicts[9]).toEqual({ stuck: false });
    expect(verdicts[10]).toMatchObject({
      stuck: true,
      level: "warning",
      detector: "generic_repeat",
      count: 10,
    });
    expect(verdicts[20]).toMatchObject({
      stuck: true,
      level: "warning",
      detector: "generic_repeat",
      count: 20,
    });
    expect(verdicts[29]).toMatchObject({
      stuck: true,
      level: "warning",
      detector: "generic_repeat",
      count: 29,
    });
    expect(verdicts[30]).toEqual({
      stuck: true,
      level: "critical",
      detector: "global_circuit_breaker",
      count: 30,
      message:
        "CRITICAL: read has repeated identical no-progress outcomes 30 times. Session execution blocked by global circuit breaker to prevent runaway loops.",
    });
  });

  it("the global circuit breaker blocks what no detector caught", async () => {
    const loops = new LoopDetector({ enabled: true, detectors: { genericRepeat: false } });
    const execute = vi.fn(
      async (_id: string, _params: unknown): Promise<AgentToolResult<unknown>> => ({
        content: [{ type: "text", text: "same" }],
        details: undefined,
      }),
    );
    const wrapped = wrapTool({ ...tool("t", () => ""), execute }, { loopDetection: loops });
    const results = [];
    for (let i = 0; i < 31; i++) results.push(await wrapped.execute(`c${i}`, { n: 1 }));
    expect(results.slice(0, 30).every((r) => !r.isError)).toBe(true);
    expect(textOf(results.at(-1)!)).toContain(
      "CRITICAL: t has repeated identical no-progress outcomes 30 times. Session execution blocked by global circuit breaker to prevent runaway loops.",
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
    expect(warn).toHaveBeenCalledWith(
      "WARNING: You have called process 10 times with identical arguments and no progress. Stop polling and either (1) increase wait time between checks, or (2) report the task as failed if the process is stuck.",
    );
    expect(results.slice(0, 20).every((r) => !r.isError)).toBe(true);
    expect(textOf(results[20]!)).toContain(
      "CRITICAL: Called process with identical arguments and no progress 20 times. This appears to be a stuck polling loop. Session execution blocked to prevent resource waste.",
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
      "WARNING: You are alternating between repeated tool-call patterns (4 consecutive calls). This looks like a ping-pong loop; stop retrying and report the task as failed.",
    );
    // a b a b a run; the sixth call, continuing the pattern with no progress, is blocked
    expect(outcomes).toEqual([false, false, false, false, false, true]);
    // blocked calls are not history: continuing the pattern stays blocked
    const again = await b.execute("b9", {});
    expect(textOf(again)).toContain(
      "CRITICAL: You are alternating between repeated tool-call patterns (6 consecutive calls) with no progress. This appears to be a stuck ping-pong loop. Session execution blocked to prevent resource waste.",
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
    // generic repeats only warn; the breaker at 4 identical outcomes blocks the fifth call
    expect(errors).toEqual([false, false, false, false, true]);
    expect(warn).toHaveBeenCalledWith(
      "WARNING: You have called spin 2 times with identical arguments. If this is not making progress, stop retrying and report the task as failed.",
    );
  });
});
