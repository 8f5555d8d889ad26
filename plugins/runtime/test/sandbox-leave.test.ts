/**
 * Leaving the bubblewrap sandbox goes through the approval path: an elevated call runs outside
 * only when approved (whatever the security level), a refusal inside says how to ask, and with
 * no approval route it is refused. Real bubblewrap, real files checked from the host.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type createExecTool, createRuntimePlugin, type ExecApprovalRequest } from "../src/index.js";
import { text } from "./helpers.js";

// /var/tmp, not /tmp: the sandbox hides both, and the files are checked from the host
const root = mkdtempSync("/var/tmp/clawtools-sandbox-leave-");
const workspaceDir = path.join(root, "ws");
const outside = path.join(root, "outside");
mkdirSync(workspaceDir);
mkdirSync(outside);
const plugins: Array<ReturnType<typeof createRuntimePlugin>> = [];
afterAll(async () => {
  for (const p of plugins) await p.dispose();
  rmSync(root, { recursive: true, force: true });
});

const asked: ExecApprovalRequest[] = [];
function execWith(exec: Record<string, unknown>, answer?: "allow-once" | "deny") {
  const plugin = createRuntimePlugin({
    sandbox: "bwrap",
    exec: {
      ...exec,
      ...(answer
        ? {
            approval: async (request: ExecApprovalRequest) => {
              asked.push(request);
              return answer;
            },
          }
        : {}),
    },
  });
  plugins.push(plugin);
  return plugin.tools.find((t) => t.names.includes("exec"))!.factory({ workspaceDir }) as ReturnType<
    typeof createExecTool
  >;
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    (r) => text(r as never),
    (e: Error) => `refused: ${e.message}`,
  );

describe("leaving the sandbox", () => {
  it("a write to the read-only system is refused inside, and the result says how to ask to run outside", async () => {
    const exec = execWith({ elevated: "ask", ask: "on-miss" });
    const target = "/usr/clawtools-sandbox-leave-marker";
    const out = await outcome(exec.execute("t", { command: `echo x > ${target}` }));
    expect(out).toMatch(/Read-only file system/);
    expect(out).toContain(
      "(sandbox: the command was refused a write outside the workspace. If it must, call exec again with elevated: true: that asks for approval to run it outside the sandbox.)",
    );
    expect(existsSync(target)).toBe(false);
  });

  it("a host outside the URL policy is refused by the proxy, and the result names that", async () => {
    const exec = execWith({ elevated: "ask", ask: "on-miss" });
    const out = await outcome(exec.execute("t", { command: "curl -sS --max-time 20 http://127.0.0.1:9/" }));
    expect(out).toContain("Blocked by the sandbox's URL policy");
    expect(out).toContain("(sandbox: the command was refused a network destination outside the URL policy.");
  });

  it("elevated: true under security=full still asks; approved, it runs outside and the write lands on the host", async () => {
    asked.length = 0;
    const exec = execWith({ elevated: "ask", ask: "on-miss", security: "full" }, "allow-once");
    const target = path.join(outside, "approved.txt");
    const result = await exec.execute("t", { command: `echo approved > ${target}`, elevated: true });
    expect(readFileSync(target, "utf8")).toBe("approved\n");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.reason).toBe("runs outside the sandbox (elevated)");
    expect(result.details.sandbox).toBe("none (elevated: ran outside the sandbox)");
  });

  it("denied, nothing runs", async () => {
    asked.length = 0;
    const exec = execWith({ elevated: "ask", ask: "on-miss" }, "deny");
    const target = path.join(outside, "denied.txt");
    expect(await outcome(exec.execute("t", { command: `echo no > ${target}`, elevated: true }))).toBe(
      "refused: exec denied: Denied by user",
    );
    expect(asked).toHaveLength(1);
    expect(existsSync(target)).toBe(false);
  });

  it("with ask=off there is no approval path: refused, saying what to set; elevated=full runs without one", async () => {
    const target = path.join(outside, "ask-off.txt");
    const off = execWith({ elevated: "ask", ask: "off" });
    expect(await outcome(off.execute("t", { command: `echo x > ${target}`, elevated: true }))).toMatch(
      /^refused: exec denied: running outside the sandbox \(elevated\) needs an approval, and exec\.ask is off/,
    );
    expect(existsSync(target)).toBe(false);
    const full = execWith({ elevated: "full" });
    await full.execute("t", { command: `echo full > ${target}`, elevated: true });
    expect(readFileSync(target, "utf8")).toBe("full\n");
  });

  it("with elevated exec off, the refusal inside says it cannot run outside here", async () => {
    const exec = execWith({});
    const out = await outcome(exec.execute("t", { command: "touch /usr/clawtools-sandbox-leave-marker" }));
    expect(out).toContain(
      "Elevated exec is not enabled (exec.elevated), so it cannot run outside the sandbox here.",
    );
  });
});
