import { describe, expect, it, vi } from "vitest";
import { Type } from "../schema.js";
import type { AnyAgentTool } from "../tool.js";
import { wrapTool } from "./wrap-tool.js";

function echoTool(overrides: Partial<AnyAgentTool> = {}): AnyAgentTool {
  return {
    name: "echo",
    label: "echo",
    description: "echo",
    parameters: Type.Object({ text: Type.String(), times: Type.Optional(Type.Number()) }),
    execute: async (_id, params) => ({
      content: [{ type: "text", text: JSON.stringify(params) }],
      details: params,
    }),
    ...overrides,
  };
}

describe("wrapTool", () => {
  it("validates before execute and never runs on invalid input", async () => {
    const execute = vi.fn();
    const result = await wrapTool(echoTool({ execute })).execute("c1", { times: "x" });
    expect(execute).not.toHaveBeenCalled();
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ status: "error", tool: "echo" });
    expect((result.details as { error: string }).error).toContain("  - text: is required");
  });

  it("turns throws into {status:error} results and coerces content-less results", async () => {
    const failing = wrapTool(
      echoTool({
        execute: async () => {
          throw new Error("disk full");
        },
      }),
    );
    const r = await failing.execute("c", { text: "a" });
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual({
      status: "error",
      tool: "echo",
      error: "disk full",
    });
    const bare = wrapTool(echoTool({ execute: async () => ({ ok: 1 }) as never }));
    expect((await bare.execute("c", { text: "a" })).content[0]).toEqual({
      type: "text",
      text: '{\n  "ok": 1\n}',
    });
  });

  it("runs before hooks by priority, merges params, blocks, and fails closed", async () => {
    const order: string[] = [];
    const tool = wrapTool(echoTool(), {
      hooks: {
        beforeToolCall: [
          {
            priority: 1,
            handler: () => {
              order.push("low");
              return { params: { times: 3 } };
            },
          },
          {
            priority: 5,
            handler: () => {
              order.push("high");
              return { params: { text: "changed" } };
            },
          },
        ],
      },
    });
    const r = await tool.execute("c", { text: "orig" });
    expect(order).toEqual(["high", "low"]);
    expect(r.details).toEqual({ text: "changed", times: 3 });

    const blocked = wrapTool(echoTool(), {
      hooks: { beforeToolCall: [{ handler: () => ({ block: true, blockReason: "no" }) }] },
    });
    expect((await blocked.execute("c", { text: "a" })).details).toMatchObject({ error: "no" });
    const throwing = wrapTool(echoTool(), {
      hooks: {
        beforeToolCall: [
          {
            handler: () => {
              throw new Error("bug");
            },
          },
        ],
      },
    });
    expect((await throwing.execute("c", { text: "a" })).details).toMatchObject({
      error: "Tool call blocked because before_tool_call hook failed",
    });
  });

  it("asks for approval: allow runs, deny and timeout block, no handler blocks with guidance", async () => {
    const needs = {
      beforeToolCall: [{ pluginId: "guard", handler: () => ({ requireApproval: { title: "ok?" } }) }],
    };
    const seen: unknown[] = [];
    const allow = wrapTool(echoTool(), {
      hooks: {
        ...needs,
        approval: async (req) => {
          seen.push(req);
          return "allow-once";
        },
      },
    });
    expect((await allow.execute("c", { text: "a" })).isError).toBeUndefined();
    expect(seen[0]).toMatchObject({ title: "ok?", pluginId: "guard", toolName: "echo" });
    const deny = wrapTool(echoTool(), { hooks: { ...needs, approval: async () => "deny" } });
    expect((await deny.execute("c", { text: "a" })).details).toMatchObject({ error: "Denied by user" });
    const slow = wrapTool(echoTool(), {
      hooks: { ...needs, approvalTimeoutMs: 20, approval: () => new Promise(() => {}) },
    });
    expect((await slow.execute("c", { text: "a" })).details).toMatchObject({ error: "Approval timed out" });
    const none = wrapTool(echoTool(), { hooks: needs });
    expect((await none.execute("c", { text: "a" })).details).toMatchObject({
      error: expect.stringContaining("no approval handler"),
    });
  });

  it("after hooks see effective params and cannot break the call; persist hooks transform", async () => {
    const events: unknown[] = [];
    const warn = vi.fn();
    const tool = wrapTool(echoTool(), {
      warn,
      hooks: {
        beforeToolCall: [{ handler: () => ({ params: { times: 2 } }) }],
        afterToolCall: [
          {
            handler: (e) => {
              events.push(e);
            },
          },
          {
            handler: () => {
              throw new Error("observer bug");
            },
          },
          {
            handler: async () => {
              throw new Error("async bug");
            },
          },
        ],
        toolResultPersist: [
          { handler: (e) => ({ result: { ...e.result, content: [{ type: "text", text: "redacted" }] } }) },
          { handler: (() => Promise.resolve({})) as never },
        ],
      },
    });
    const r = await tool.execute("c9", { text: "a" });
    expect(r.content).toEqual([{ type: "text", text: "redacted" }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events[0]).toMatchObject({ toolCallId: "c9", params: { text: "a", times: 2 }, isError: false });
    expect(typeof (events[0] as { durationMs: number }).durationMs).toBe("number");
    expect(warn.mock.calls.map((c) => c[0]).join("\n")).toMatch(
      /observer bug[\s\S]*Promise|Promise[\s\S]*observer bug/,
    );
  });

  it("never starts an aborted call and combines the run signal", async () => {
    const execute = vi.fn();
    const run = new AbortController();
    run.abort();
    await expect(
      wrapTool(echoTool({ execute }), { signal: run.signal }).execute("c", { text: "a" }),
    ).rejects.toMatchObject({
      name: "AbortError",
      message: "Aborted",
    });
    const call = new AbortController();
    const seen: AbortSignal[] = [];
    const tool = wrapTool(
      echoTool({
        execute: (_id, _p, signal) =>
          new Promise((_, reject) => {
            seen.push(signal!);
            signal!.addEventListener("abort", () => reject(new Error("stopped")));
          }),
      }),
      { signal: new AbortController().signal },
    );
    const pending = tool.execute("c", { text: "a" }, call.signal);
    call.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(execute).not.toHaveBeenCalled();
    expect(seen[0]!.aborted).toBe(true);
  });

  it("refuses owner-only tools for non-owners with the spec's text", async () => {
    const tool = wrapTool(echoTool({ name: "cron" }));
    expect((await tool.execute("c", { text: "a" })).details).toMatchObject({
      error: "Tool restricted to owner senders.",
    });
    expect(
      (await wrapTool(echoTool({ name: "cron" }), { senderIsOwner: true }).execute("c", { text: "a" }))
        .isError,
    ).toBeUndefined();
  });
});
