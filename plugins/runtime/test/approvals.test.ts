import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { APPROVALS_FILE, runWithApprovalHandler, type ToolApprovalRequest } from "@clawtools/core/approvals";
import { afterAll, describe, expect, it } from "vitest";
import { createRuntimePlugin, type ExecApprovalRequest } from "../src/index.js";
import { text } from "./helpers.js";

const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-exec-approvals-"));
const disposers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const dispose of disposers) await dispose();
});

/** A fresh toolset (a new runtime plugin) on `stateDir`, exec asking on every command. */
function toolset(
  stateDir: string,
  approval?: (request: ExecApprovalRequest) => Promise<"allow-once" | "allow-always" | "deny">,
) {
  const runtime = createRuntimePlugin({ exec: { ask: "always", ...(approval ? { approval } : {}) } });
  const set = createToolset({ plugins: [runtime], context: { workspaceDir, stateDir } });
  disposers.push(() => set.dispose());
  const exec = set.tools.find((t) => t.name === "exec");
  if (!exec) throw new Error("exec missing from the toolset");
  return exec;
}

describe("exec approvals through core's approval path", () => {
  it("allow-always is remembered in the state directory: a new toolset runs it without asking", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-state-"));
    const asked: ExecApprovalRequest[] = [];
    const first = toolset(stateDir, async (request) => {
      asked.push(request);
      return "allow-always";
    });
    expect(text(await first.execute("c1", { command: "printf remembered" }))).toBe("remembered");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: "exec", command: "printf remembered", reason: "ask=always" });
    expect(readFileSync(path.join(stateDir, APPROVALS_FILE), "utf8")).toContain("printf remembered");
    // no handler at all: the remembered command runs, another is refused with today's guidance
    const second = toolset(stateDir);
    expect(text(await second.execute("c2", { command: "printf remembered" }))).toBe("remembered");
    expect(text(await second.execute("c3", { command: "printf other" }))).toMatch(
      /no approval handler is configured/,
    );
    // the same command with other call variables is not covered
    expect(text(await second.execute("c4", { command: "printf remembered", env: { X: "1" } }))).toMatch(
      /no approval handler is configured/,
    );
  });

  it("allow-once asks every time and remembers nothing", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-state-"));
    let asked = 0;
    const exec = toolset(stateDir, async () => {
      asked += 1;
      return "allow-once";
    });
    expect(text(await exec.execute("c1", { command: "printf a" }))).toBe("a");
    expect(text(await exec.execute("c2", { command: "printf a" }))).toBe("a");
    expect(asked).toBe(2);
    expect(text(await toolset(stateDir).execute("c3", { command: "printf a" }))).toMatch(
      /no approval handler/,
    );
  });

  it("a handler installed around the call (as serve does) is asked, and a timeout is denied and told", async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), "clawtools-state-"));
    const exec = toolset(stateDir);
    const seen: ToolApprovalRequest[] = [];
    const result = await runWithApprovalHandler(
      async (request) => {
        seen.push(request);
        return "allow-once";
      },
      () => exec.execute("c1", { command: "printf ambient" }),
    );
    expect(text(result)).toBe("ambient");
    expect(seen[0]).toMatchObject({ tool: "exec", command: "printf ambient", cwd: expect.any(String) });

    const runtime = createRuntimePlugin({ exec: { ask: "always", approvalTimeoutMs: 30 } });
    const set = createToolset({ plugins: [runtime], context: { workspaceDir, stateDir } });
    disposers.push(() => set.dispose());
    let told: unknown;
    const waiting = set.tools.find((t) => t.name === "exec")!;
    expect(
      text(
        await runWithApprovalHandler(
          (_request, signal) =>
            new Promise((_resolve, reject) =>
              signal.addEventListener("abort", () => {
                told = signal.reason;
                reject(signal.reason);
              }),
            ),
          () => waiting.execute("c2", { command: "printf late" }),
        ),
      ),
    ).toMatch("exec denied: approval timed out");
    expect((told as DOMException).name).toBe("TimeoutError");
  });
});
