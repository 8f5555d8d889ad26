import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runWithApprovalHandler } from "./ambient.js";
import { askApproval, type ToolApprovalHandler, type ToolApprovalRequest } from "./ask.js";
import { ApprovalGate } from "./gate.js";
import { FakeClock } from "../testing/index.js";
import { APPROVALS_FILE } from "./memory.js";
import { visibleText } from "./visible.js";

const request: ToolApprovalRequest = {
  tool: "exec",
  command: "make deploy",
  cwd: "/w",
  reason: "ask=always",
};
const tempDir = () => mkdtemp(path.join(os.tmpdir(), "clawtools-approvals-"));

function counting(decision: "allow-once" | "allow-always" | "deny") {
  const seen: ToolApprovalRequest[] = [];
  const handler: ToolApprovalHandler = async (r) => {
    seen.push(r);
    return decision;
  };
  return { seen, handler };
}

describe("approval gate", () => {
  it("allow-once asks every time", async () => {
    const { seen, handler } = counting("allow-once");
    const gate = new ApprovalGate({ handler, stateDir: await tempDir() });
    expect(await gate.decide(request, "make deploy")).toBe("allow-once");
    expect(await gate.decide(request, "make deploy")).toBe("allow-once");
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(request);
  });

  it("allow-always persists across a new gate on the same state directory, for that key only", async () => {
    const stateDir = await tempDir();
    const first = counting("allow-always");
    expect(await new ApprovalGate({ handler: first.handler, stateDir }).decide(request, "make deploy")).toBe(
      "allow-always",
    );
    const stored = JSON.parse(await readFile(path.join(stateDir, APPROVALS_FILE), "utf8"));
    expect(Object.keys(stored.allowAlways)).toEqual(["exec\u0000/w\u0000make deploy"]);
    const second = counting("deny");
    const again = new ApprovalGate({ handler: second.handler, stateDir });
    expect(await again.decide(request, "make deploy")).toBe("remembered");
    expect(second.seen).toHaveLength(0);
    // another command, or the same command under another tool, is asked
    expect(await again.decide(request, "make deploy; rm -rf /")).toBe("deny");
    expect(await again.decide({ ...request, tool: "other" }, "make deploy")).toBe("deny");
    // nor the same command in another directory than the one the form showed
    expect(await again.decide({ ...request, cwd: "/elsewhere" }, "make deploy")).toBe("deny");
    expect(second.seen).toHaveLength(3);
    expect(second.seen[2]?.cwd).toBe("/elsewhere");
  });

  it("a corrupt approvals file remembers nothing (asks again) and is rewritten on the next allow-always", async () => {
    const stateDir = await tempDir();
    await writeFile(path.join(stateDir, APPROVALS_FILE), "{not json");
    const { seen, handler } = counting("allow-always");
    const gate = new ApprovalGate({ handler, stateDir });
    expect(await gate.decide(request, "k")).toBe("allow-always");
    expect(seen).toHaveLength(1);
    expect(await new ApprovalGate({ stateDir }).decide(request, "k")).toBe("remembered");
  });

  it("a handler that never answers times out: denied, and its signal tells it why", async () => {
    let told: unknown;
    const handler: ToolApprovalHandler = (_r, signal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener("abort", () => {
          told = signal.reason;
          reject(signal.reason);
        });
      });
    const gate = new ApprovalGate({ handler, timeoutMs: 20 });
    expect(await gate.decide(request, "k")).toBe("timeout");
    expect(told).toBeInstanceOf(DOMException);
    expect((told as DOMException).name).toBe("TimeoutError");
  });

  it("a throwing handler, or one answering nonsense, denies", async () => {
    const throwing = new ApprovalGate({
      handler: async () => {
        throw new Error("boom");
      },
    });
    expect(await throwing.decide(request, "k")).toBe("deny");
    const sync = new ApprovalGate({
      handler: (() => {
        throw new Error("sync boom");
      }) as unknown as ToolApprovalHandler,
    });
    expect(await sync.decide(request, "k")).toBe("deny");
    const nonsense = new ApprovalGate({ handler: async () => "yes" as never });
    expect(await nonsense.decide(request, "k")).toBe("deny");
  });

  it("the run's abort cancels the approval and tells the handler", async () => {
    const run = new AbortController();
    let told: unknown;
    const handler: ToolApprovalHandler = (_r, signal) =>
      new Promise(() => {
        signal.addEventListener("abort", () => {
          told = signal.reason;
        });
        run.abort();
      });
    expect(await askApproval(handler, request, { signal: run.signal })).toBe("cancelled");
    expect((told as DOMException).name).toBe("AbortError");
  });

  it("without a handler the outcome is unavailable; one installed around the call is used", async () => {
    const gate = new ApprovalGate();
    expect(await gate.decide(request, "k")).toBe("unavailable");
    const { seen, handler } = counting("allow-once");
    expect(await runWithApprovalHandler(handler, () => gate.decide(request, "k"))).toBe("allow-once");
    expect(seen).toHaveLength(1);
  });

  it("rejects a timeout that is not a positive number", async () => {
    await expect(askApproval(async () => "deny", request, { timeoutMs: 0 })).rejects.toThrow(/positive/);
  });
});

describe("visibleText", () => {
  it("writes controls, ANSI escapes, bidi overrides and zero-width characters as visible escapes", () => {
    expect(visibleText("touch pwned.txt #\r\x1b[2Kls -la")).toBe("touch pwned.txt #\\r\\x1b[2Kls -la");
    expect(visibleText("echo \u202eexe.txt")).toBe("echo \\u202eexe.txt");
    expect(visibleText("rm\u200b -rf\u2066 /\ufeff")).toBe("rm\\u200b -rf\\u2066 /\\ufeff");
    expect(visibleText("a\nb\tc\x7f\x9b\u{e0041}")).toBe("a\\nb\\tc\\x7f\\x9b\\u{e0041}");
    // ordinary text, including non-Latin scripts and emoji, is left as it is
    expect(visibleText("ls -la ~/Документы 日本 😀 a\\b")).toBe("ls -la ~/Документы 日本 😀 a\\b");
  });
});

describe("askApproval on a clock", () => {
  it("times out when the clock reaches the limit, telling the handler, and releases its timer", async () => {
    const clock = new FakeClock();
    let told: unknown;
    const outcome = askApproval(
      (_r: unknown, signal: AbortSignal) =>
        new Promise((_, reject) =>
          signal.addEventListener("abort", () => {
            told = signal.reason;
            reject(signal.reason);
          }),
        ),
      {},
      { timeoutMs: 60_000, clock },
    );
    await clock.whenPending(1);
    clock.advance(60_000);
    expect(await outcome).toBe("timeout");
    expect((told as DOMException).message).toBe("Approval timed out after 60000 ms");
    expect(clock.pending).toBe(0);
  });
});
