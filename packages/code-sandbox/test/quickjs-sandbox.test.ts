import { afterEach, describe, expect, it } from "vitest";
import { createQuickJsSandbox, type SandboxLimits, type SandboxRun } from "../src/index.js";

const limits: SandboxLimits = {
  memoryLimitBytes: 16 * 1024 * 1024,
  maxPendingCalls: 4,
  maxQueuedCalls: 8,
  maxOutputBytes: 1024,
  maxRequestBytes: 4096,
};
// the API a host would give its guest: one function over the bridge
const prelude = `
const bridge = globalThis.__sandboxBridge;
delete globalThis.__sandboxBridge;
globalThis.ask = (question) => bridge.request("ask", [question]);
`;
const sandbox = createQuickJsSandbox();
const runs: SandboxRun[] = [];
const start = async (code: string, overrides: Partial<SandboxLimits> = {}) => {
  const run = await sandbox.start({ prelude, code, globals: {}, limits: { ...limits, ...overrides } });
  runs.push(run);
  return run;
};
const soon = (ms = 3_000) => Date.now() + ms;
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.dispose()));
});

describe("the QuickJS sandbox", () => {
  it("runs the code as an async function body and returns its value as JSON", async () => {
    const run = await start(`text("hi"); json({ a: 1 }); return [1, "two", { three: 3 }];`);
    const step = await run.step({ settled: [], deadline: soon() });
    expect(step).toEqual({
      status: "completed",
      value: { json: '[1,"two",{"three":3}]', originalBytes: 21 },
      output: {
        entries: [
          { type: "text", text: "hi" },
          { type: "json", value: { a: 1 } },
        ],
        omittedBytes: 0,
      },
    });
  });

  it("hands requests to the host and resumes the guest with the host's answers", async () => {
    const run = await start(`const [a, b] = await Promise.all([ask("x"), ask("y")]); return a + b;`);
    const first = await run.step({ settled: [], deadline: soon() });
    expect(first).toMatchObject({
      status: "awaiting",
      requests: [
        { id: "bridge:ask:1", method: "ask", args: ["x"] },
        { id: "bridge:ask:2", method: "ask", args: ["y"] },
      ],
    });
    const done = await run.step({
      settled: [
        { id: "bridge:ask:1", ok: true, json: '"X"' },
        { id: "bridge:ask:2", ok: true, json: '"Y"' },
      ],
      deadline: soon(),
    });
    expect(done).toMatchObject({ status: "completed", value: { json: '"XY"' } });
  });

  it("a host failure rejects in the guest, where it can be caught", async () => {
    const run = await start(`try { await ask("x"); } catch (e) { return e.message + "/" + e.code; }`);
    await run.step({ settled: [], deadline: soon() });
    const done = await run.step({
      settled: [{ id: "bridge:ask:1", ok: false, json: '{"message":"no","code":"tool_error"}' }],
      deadline: soon(),
    });
    expect(done).toMatchObject({ status: "completed", value: { json: '"no/tool_error"' } });
  });

  it("has no host objects, no modules and no process", async () => {
    const run = await start(
      `return [typeof process, typeof require, typeof fetch, typeof WebAssembly, typeof __sandboxBridge, typeof __sandboxControl, typeof __sandboxHostRequest];`,
    );
    const step = await run.step({ settled: [], deadline: soon() });
    expect(step).toMatchObject({ value: { json: JSON.stringify(Array(7).fill("undefined")) } });
    const imported = await start(`await import("node:fs");`);
    expect(await imported.step({ settled: [], deadline: soon() })).toMatchObject({
      status: "failed",
      code: "invalid_input",
      error: "code mode module access is disabled.",
    });
    const required = await start(`require("fs");`);
    expect(await required.step({ settled: [], deadline: soon() })).toMatchObject({
      error: "code mode module access is disabled.",
    });
  });

  it("interrupts a guest that computes past its deadline, and says so", async () => {
    const run = await start(`while (true) {}`);
    expect(await run.step({ settled: [], deadline: soon(300) })).toMatchObject({
      status: "failed",
      code: "timeout",
      error: "code mode timeout exceeded",
    });
  });

  it("fails a guest that allocates past its memory limit, naming the limit", async () => {
    const run = await start(`const a = []; while (true) a.push("x".repeat(1000) + a.length);`);
    expect(await run.step({ settled: [], deadline: soon(20_000) })).toMatchObject({
      status: "failed",
      code: "memory_limit_exceeded",
      error: `code mode memory limit exceeded (${16 * 1024 * 1024} bytes)`,
    });
  });

  it("reports a syntax error at the model's own line and column, before anything runs", async () => {
    const run = await start(`ask("never");\nlet x = ;`);
    expect(await run.step({ settled: [], deadline: soon() })).toEqual({
      status: "failed",
      code: "invalid_input",
      error:
        "SyntaxError at clawtools-code-mode:user.js:2:9: unexpected token in expression: ';'. No tools were dispatched; correct the JavaScript source and submit it again.",
      output: { entries: [], omittedBytes: 0 },
    });
  });

  it("keeps output within its limit and counts what it left out", async () => {
    const run = await start(
      `for (let i = 0; i < 100; i++) text("line " + i + " " + "x".repeat(40)); return "x".repeat(5000);`,
    );
    const step = await run.step({ settled: [], deadline: soon() });
    if (step.status !== "completed") throw new Error(JSON.stringify(step));
    const kept = step.output.entries.reduce<number>((sum, entry) => sum + JSON.stringify(entry).length, 0);
    expect(kept).toBeLessThanOrEqual(1024);
    expect(kept).toBeGreaterThan(900);
    expect(step.output.omittedBytes).toBeGreaterThan(3000);
    expect(step.value).toEqual({ json: `"${"x".repeat(1023)}`, originalBytes: 5002 });
  });

  it("holds the guest to its in-flight and queued request limits", async () => {
    const run = await start(
      `const all = []; for (let i = 0; i < 20; i++) all.push(ask(i)); return await Promise.all(all);`,
    );
    const step = await run.step({ settled: [], deadline: soon() });
    expect(step).toMatchObject({
      status: "failed",
      code: "invalid_input",
      error:
        "code mode bridge queue limit exceeded (8 ordinary requests queued; 4 in-flight slots). Await smaller batches before creating more tool calls or timers.",
    });
    const queued = await start(
      `const all = []; for (let i = 0; i < 10; i++) all.push(ask(i)); return (await Promise.all(all)).length;`,
    );
    const first = await queued.step({ settled: [], deadline: soon() });
    if (first.status !== "awaiting") throw new Error(JSON.stringify(first));
    expect(first.requests.map((r) => r.args[0])).toEqual([0, 1, 2, 3]);
    const second = await queued.step({
      settled: first.requests.map((r) => ({ id: r.id, ok: true, json: "1" })),
      deadline: soon(),
    });
    if (second.status !== "awaiting") throw new Error(JSON.stringify(second));
    expect(second.requests.map((r) => r.args[0])).toEqual([4, 5, 6, 7]);
  });

  it("refuses a request whose arguments pass the request limit", async () => {
    const run = await start(`await ask("y".repeat(5000));`);
    expect(await run.step({ settled: [], deadline: soon() })).toMatchObject({
      status: "failed",
      code: "invalid_input",
      error: "code mode tool call arguments exceed the 4096-byte request limit",
    });
  });
});
