import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecTool, createProcessTool, ProcessRegistry } from "../src/index.js";
import { processesMatching, text, waitFor } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.killAll());
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-rt-"));
const ctx = { workspaceDir, sessionKey: "s1" };
const exec = createExecTool(ctx, { registry });
const proc = createProcessTool(ctx, { registry });

describe("exec", () => {
  it("runs in the workspace and aggregates stdout and stderr", async () => {
    const r = await exec.execute("c", { command: "pwd; echo err >&2" });
    expect(text(r)).toBe(`${workspaceDir}\nerr`);
    expect(r.details).toMatchObject({ status: "completed", exitCode: 0, cwd: workspaceDir });
  });

  it("uses the exact texts for no output, non-zero exits, 126 and 127", async () => {
    expect(text(await exec.execute("c", { command: "true" }))).toBe("(no output)");
    expect(text(await exec.execute("c", { command: "echo out; exit 3" }))).toBe(
      "out\n\n(Command exited with code 3)",
    );
    await expect(exec.execute("c", { command: "definitely-not-a-command-xyz" })).rejects.toThrow(
      /\n\nCommand not found$/,
    );
    await expect(exec.execute("c", { command: "/etc/passwd" })).rejects.toThrow(
      /Command not executable \(permission denied\)$/,
    );
    await expect(exec.execute("c", { command: "   " })).rejects.toThrow("Provide a command to start.");
  });

  it("streams output through onUpdate", async () => {
    const updates: string[] = [];
    await exec.execute("c", { command: "echo one; sleep 0.2; echo two" }, undefined, (u) => {
      updates.push(u.content?.map((c) => (c.type === "text" ? c.text : "")).join("") ?? "");
    });
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.at(-1)).toContain("two");
  });

  it("backgrounds after the yield window and is polled to completion", async () => {
    const r = await exec.execute("c", { command: "echo start; sleep 1; echo done", yieldMs: 100 });
    expect(text(r)).toMatch(
      /^Command still running \(session (\w+), pid \d+\)\. Use process \(list\/poll\/log\/write\/kill\/clear\/remove\) for follow-up\.$/,
    );
    const sessionId = (r.details as { sessionId: string }).sessionId;
    await registry.get("s1", sessionId)!.exited;
    const polled = await proc.execute("p", { action: "poll", sessionId, timeout: 20_000 });
    expect(text(polled)).toBe("start\ndone\n\nProcess exited with code 0.");
    expect(text(await proc.execute("p", { action: "poll", sessionId }))).toBe(
      "(no new output)\n\nProcess exited with code 0.",
    );
  });

  it("poll with a timeout returns as soon as there is new output, not at the exit", async () => {
    const r = await exec.execute("c", { command: "sleep 0.3; echo first; sleep 600", background: true });
    const sessionId = (r.details as { sessionId: string }).sessionId;
    // the process lives 10 minutes: an answer that names `first` came when the output did
    const polled = await proc.execute("p", { action: "poll", sessionId, timeout: 120_000 });
    expect(text(polled)).toBe("first\n\nProcess still running.");
    await proc.execute("p", { action: "remove", sessionId });
  });

  it("still reports a syntax error on the first line, before stderr is merged", async () => {
    expect(text(await exec.execute("c", { command: "echo (" }))).toBe(
      '/bin/sh: 1: Syntax error: end of file unexpected (expecting ")")\n\n(Command exited with code 2)',
    );
  });

  it("keeps the real order of stdout and stderr (one merged stream)", async () => {
    for (let i = 0; i < 20; i++) {
      expect(text(await exec.execute("c", { command: "echo a >&2; echo b; echo c >&2; echo d" }))).toBe(
        "a\nb\nc\nd",
      );
    }
  });

  it("kills the whole process group on timeout: no orphans", async () => {
    await expect(
      exec.execute("c", { command: "sh -c 'sleep 4141 & sleep 4141'", timeout: 1 }),
    ).rejects.toThrow(/Command timed out after 1 seconds\./);
    expect(await waitFor(() => processesMatching("sleep 4141").length === 0)).toBe(true);
  });

  it("kills the whole process group on abort, but background sessions survive an abort", async () => {
    const controller = new AbortController();
    const pending = exec.execute("c", { command: "sh -c 'sleep 4242 & sleep 4242'" }, controller.signal);
    await waitFor(() => processesMatching("sleep 4242").length >= 2);
    controller.abort();
    await expect(pending).rejects.toThrow("Command aborted");
    expect(await waitFor(() => processesMatching("sleep 4242").length === 0)).toBe(true);

    const bg = new AbortController();
    const r = await exec.execute("c", { command: "sleep 4343", background: true }, bg.signal);
    bg.abort();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesMatching("sleep 4343").length).toBeGreaterThan(0);
    await proc.execute("p", { action: "kill", sessionId: (r.details as { sessionId: string }).sessionId });
    expect(await waitFor(() => processesMatching("sleep 4343").length === 0)).toBe(true);
  });

  it("refuses PATH and dangerous variables, drops inherited ones", async () => {
    await expect(exec.execute("c", { command: "true", env: { PATH: "/tmp" } })).rejects.toThrow(
      "Security Violation: Custom 'PATH' variable is forbidden during host execution.",
    );
    await expect(exec.execute("c", { command: "true", env: { LD_PRELOAD: "/x.so" } })).rejects.toThrow(
      /LD_PRELOAD' is forbidden/,
    );
    process.env.NODE_OPTIONS = "--require /tmp/evil.js";
    try {
      const r = await exec.execute("c", { command: 'echo "[$NODE_OPTIONS][$FOO]"', env: { FOO: "bar" } });
      expect(text(r)).toBe("[][bar]");
    } finally {
      delete process.env.NODE_OPTIONS;
    }
  });

  it("says so when the shell cannot start", async () => {
    const broken = createExecTool(ctx, { registry, shell: "/nonexistent/sh" });
    await expect(broken.execute("c", { command: "true" })).rejects.toThrow(
      "Failed to start the command: spawn /nonexistent/sh ENOENT",
    );
  });

  it("refuses a missing working directory and hosts that are not configured", async () => {
    await expect(exec.execute("c", { command: "true", workdir: "nope" })).rejects.toThrow(
      `Working directory does not exist: "${path.join(workspaceDir, "nope")}"`,
    );
    await expect(exec.execute("c", { command: "true", host: "node" })).rejects.toThrow(
      "exec host=node requires a node host. Pass an ExecHost as runtime option exec.hosts.node, or use host=auto/gateway.",
    );
    await expect(exec.execute("c", { command: "true", host: "sandbox" })).rejects.toThrow(
      "exec host=sandbox requires a sandbox runtime for this session. Pass an ExecHost as runtime option exec.hosts.sandbox, or use host=auto/gateway/node.",
    );
  });

  it("resolves hosts as OpenClaw does: auto prefers the sandbox, which a call cannot escape", async () => {
    const seen: Array<{ command: string; env: Record<string, string>; node?: string }> = [];
    const recorder = (name: string) => ({
      run: async (
        command: string,
        o: { env: Record<string, string>; node?: string; onData: (s: string) => void },
      ) => {
        seen.push({ command, env: o.env, ...(o.node ? { node: o.node } : {}) });
        o.onData(`${name} says hi\n`);
        return { exitCode: 0 };
      },
    });
    const sandboxed = createExecTool(ctx, { registry, hosts: { sandbox: recorder("sandbox") } });
    expect(text(await sandboxed.execute("c", { command: "uname", env: { A: "1" } }))).toBe("sandbox says hi");
    // only the call's own variables travel: this machine's environment stays here
    expect(seen).toEqual([{ command: "uname", env: { A: "1" } }]);
    await expect(sandboxed.execute("c", { command: "uname", host: "gateway" })).rejects.toThrow(
      "exec host not allowed (requested gateway; configured host is auto; set exec.host=gateway to allow this override).",
    );
    await expect(sandboxed.execute("c", { command: "uname", env: { PATH: "/x" } })).rejects.toThrow(
      "Security Violation: Custom 'PATH' variable is forbidden during host execution.",
    );
    const pinned = createExecTool(ctx, { registry, host: "gateway", hosts: { node: recorder("node") } });
    await expect(pinned.execute("c", { command: "uname", host: "node" })).rejects.toThrow(
      "exec host not allowed (requested node; configured host is gateway; set exec.host=node or auto to allow this override).",
    );
    const nodes = createExecTool(ctx, { registry, hosts: { node: recorder("node") } });
    expect(text(await nodes.execute("c", { command: "hostname", host: "node", node: "mac-mini" }))).toBe(
      "node says hi",
    );
    expect(seen.at(-1)).toEqual({ command: "hostname", env: {}, node: "mac-mini" });
  });

  it("runs elevated calls only when enabled: on this machine, and without approvals at full", async () => {
    await expect(exec.execute("c", { command: "true", elevated: true })).rejects.toThrow(
      'elevated exec is not enabled. Set runtime option exec.elevated to "ask" (run on this machine with approvals) or "full" (no approvals) to allow it.',
    );
    const sandbox = { run: async () => ({ exitCode: 0 }) };
    const full = createExecTool(ctx, {
      registry,
      security: "allowlist",
      ask: "always",
      elevated: "full",
      hosts: { sandbox },
    });
    // leaves the sandbox for this machine, and neither allowlist nor approval stands in the way
    expect(text(await full.execute("c", { command: "pwd", elevated: true }))).toBe(workspaceDir);
    const asking = createExecTool(ctx, { registry, ask: "always", elevated: "ask", hosts: { sandbox } });
    await expect(asking.execute("c", { command: "pwd", elevated: true })).rejects.toThrow(
      /exec denied: this command needs approval but no approval handler is configured/,
    );
  });
});

describe("exec security", () => {
  it("deny refuses everything; a call may tighten but never loosen", async () => {
    const denied = createExecTool(ctx, { registry, security: "deny" });
    await expect(denied.execute("c", { command: "true", security: "full" })).rejects.toThrow(
      "exec denied: host=gateway security=deny",
    );
    await expect(exec.execute("c", { command: "true", security: "deny" })).rejects.toThrow(
      "exec denied: host=gateway security=deny",
    );
  });

  it("checks every segment against the allowlist; safe bins read stdin only", async () => {
    const tool = createExecTool(ctx, {
      registry,
      security: "allowlist",
      allowlist: [{ pattern: "echo" }, { pattern: "git", argPattern: "status.*" }],
    });
    expect(text(await tool.execute("c", { command: "echo a b | wc -w" }))).toBe("2");
    expect(text(await tool.execute("c", { command: "echo x && echo y | head -n 1" }))).toBe("x\ny");
    await expect(tool.execute("c", { command: "echo hi; rm -rf /tmp/nothing" })).rejects.toThrow(
      "exec denied: allowlist miss: rm -rf /tmp/nothing",
    );
    await expect(tool.execute("c", { command: "echo $(cat /etc/passwd)" })).rejects.toThrow(
      "exec denied: command could not be analysed (command substitution)",
    );
    await expect(tool.execute("c", { command: "head /etc/passwd" })).rejects.toThrow(
      "exec denied: allowlist miss: head /etc/passwd (operand /etc/passwd could name a file)",
    );
    await expect(tool.execute("c", { command: "git push" })).rejects.toThrow(/allowlist miss: git push/);
    await expect(tool.execute("c", { command: "cat <<EOF\nx\nEOF" })).rejects.toThrow(
      /could not be analysed \(heredoc\)/,
    );
  });

  it("asks the approval handler on a miss; allow-always is remembered; no handler is denied with guidance", async () => {
    const asked: string[] = [];
    const tool = createExecTool(ctx, {
      registry,
      security: "allowlist",
      ask: "on-miss",
      approval: async (req) => {
        asked.push(req.reason);
        return "allow-always";
      },
    });
    expect(text(await tool.execute("c", { command: "printf ok" }))).toBe("ok");
    expect(text(await tool.execute("c", { command: "printf ok" }))).toBe("ok");
    expect(asked).toEqual(["allowlist miss: printf ok"]);
    const denying = createExecTool(ctx, { registry, ask: "always", approval: async () => "deny" });
    await expect(denying.execute("c", { command: "true" })).rejects.toThrow("exec denied: Denied by user");
    const slow = createExecTool(ctx, {
      registry,
      ask: "always",
      approvalTimeoutMs: 50,
      approval: () => new Promise(() => {}),
    });
    await expect(slow.execute("c", { command: "true" })).rejects.toThrow("exec denied: approval timed out");
    await expect(exec.execute("c", { command: "true", ask: "always" })).rejects.toThrow(
      /no approval handler is configured.*add an allowlist entry/,
    );
  });

  it("asks again after allow-once, never asks on an allowlist hit, and on-miss means nothing under full", async () => {
    const asked: string[] = [];
    const approval = async (req: { command: string }) => {
      asked.push(req.command);
      return "allow-once" as const;
    };
    const tool = createExecTool(ctx, {
      registry,
      security: "allowlist",
      ask: "on-miss",
      allowlist: [{ pattern: "echo" }],
      approval,
    });
    expect(text(await tool.execute("c", { command: "printf once" }))).toBe("once");
    expect(text(await tool.execute("c", { command: "printf once" }))).toBe("once");
    expect(text(await tool.execute("c", { command: "echo hit | tr a-z A-Z" }))).toBe("HIT");
    expect(asked).toEqual(["printf once", "printf once"]);
    const full = createExecTool(ctx, { registry, ask: "on-miss", approval });
    expect(text(await full.execute("c", { command: "printf free" }))).toBe("free");
    expect(asked).toHaveLength(2);
    // a call can raise ask to always, and the handler is asked even under full
    expect(text(await full.execute("c", { command: "printf raised", ask: "always" }))).toBe("raised");
    expect(asked).toEqual(["printf once", "printf once", "printf raised"]);
  });

  it("a handler that throws counts as a deny; a call cannot loosen allowlist to full", async () => {
    const throwing = createExecTool(ctx, {
      registry,
      ask: "always",
      approval: async () => {
        throw new Error("ui crashed");
      },
    });
    await expect(throwing.execute("c", { command: "true" })).rejects.toThrow("exec denied: Denied by user");
    const strict = createExecTool(ctx, { registry, security: "allowlist", allowlist: [{ pattern: "echo" }] });
    await expect(strict.execute("c", { command: "id", security: "full", ask: "off" })).rejects.toThrow(
      "exec denied: allowlist miss: id",
    );
  });
});
