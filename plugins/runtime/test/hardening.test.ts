import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createExecTool,
  createProcessTool,
  createRuntimePlugin,
  encodeSendKeys,
  MAX_COMMAND_CHARS,
  ProcessRegistry,
  ptyLoaded,
} from "../src/index.js";
import { processesMatching, text, waitFor } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.killAll());
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-hard-"));
const ctx = { workspaceDir, sessionKey: "h" };
const exec = createExecTool(ctx, { registry });
const proc = createProcessTool(ctx, { registry });

describe("no call can freeze the server", () => {
  it("refuses a 1 MB command at once with a clear error, and another call is answered meanwhile", async () => {
    const huge = `echo ${"a".repeat(1024 * 1024)}`;
    const [big, other] = await Promise.allSettled([
      exec.execute("c", { command: huge }),
      exec.execute("c", { command: "echo other" }),
    ]);
    expect(big).toMatchObject({
      status: "rejected",
      reason: {
        message: `Command too long: ${huge.length} characters (the limit is ${MAX_COMMAND_CHARS}). Write long scripts to a file and run the file.`,
      },
    });
    expect(other.status === "fulfilled" && text(other.value)).toBe("other");
  });

  it("scans a long command in one pass: 120,000-char words through the preflight and the allowlist reader", async () => {
    // one unbroken word: the old script-hint regex went back over it from every position
    const word = "a".repeat(120_000);
    const strict = createExecTool(ctx, { registry, security: "allowlist", allowlist: [{ pattern: "echo" }] });
    const [full, allow, other] = await Promise.all([
      exec.execute("c", { command: `echo ${word}` }),
      strict.execute("c", { command: `echo ${word} | wc -c` }),
      exec.execute("c", { command: "echo other" }),
    ]);
    expect(text(full)).toBe(word);
    expect(text(allow)).toBe(String(word.length + 1));
    expect(text(other)).toBe("other");
  });

  it("refuses an oversized key token before parsing its modifier chain", () => {
    const token = `${"C-".repeat(100_000)}c`;
    expect(encodeSendKeys({ keys: [token] })).toEqual({
      data: "",
      warnings: [`Unknown key ${JSON.stringify(token.slice(0, 32))}… (${token.length} characters) ignored`],
    });
  });

  it("quotes only a short prefix of model input in its errors", async () => {
    const longDir = "d".repeat(100_000);
    await expect(exec.execute("c", { command: "true", workdir: longDir })).rejects.toThrow(
      `Working directory does not exist: ${JSON.stringify(path.join(workspaceDir, longDir).slice(0, 200))}… (${path.join(workspaceDir, longDir).length} characters)`,
    );
    const strict = createExecTool(ctx, { registry, security: "allowlist" });
    const error = await strict.execute("c", { command: `x${"y".repeat(200_000)}` }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `exec denied: allowlist miss: x${"y".repeat(199)}… (200001 characters)`,
    );
    const unknown = await proc.execute("p", { action: "poll", sessionId: "z".repeat(50_000) });
    expect(text(unknown)).toBe(`No session found for ${"z".repeat(80)}… (50000 characters)`);
  });
});

describe("exec arguments", () => {
  it("takes OpenClaw 9.6's timeoutSeconds as an alias of timeout, and its title", async () => {
    await expect(
      exec.execute("c", { command: "sleep 30", timeoutSeconds: 1, title: "wait" }),
    ).rejects.toThrow(/^Command timed out after 1 seconds\./);
    await expect(exec.execute("c", { command: "true", timeout: 5, timeoutSeconds: 6 })).rejects.toThrow(
      "exec: timeout (5) and its alias timeoutSeconds (6) disagree; give one of them.",
    );
    expect(text(await exec.execute("c", { command: "echo hi", title: "Say hi", timeoutSeconds: 30 }))).toBe(
      "hi",
    );
  });

  it("refuses an argument it does not know, naming it", async () => {
    await expect(exec.execute("c", { command: "echo hi", timeout_seconds: 1 } as never)).rejects.toThrow(
      'exec: unknown argument "timeout_seconds". Known arguments: command, title, workdir, env, yieldMs, background, timeout, timeoutSeconds, pty, elevated, host, security, ask, node.',
    );
    await expect(proc.execute("p", { action: "list", cursor: 2, all: true } as never)).rejects.toThrow(
      'process: unknown arguments "cursor", "all". Known arguments: action, sessionId, data, keys, hex, literal, text, bracketed, eof, offset, limit, timeout.',
    );
  });
});

describe("runtime plugin configuration and lifecycle", () => {
  const factoryOf = (plugin: ReturnType<typeof createRuntimePlugin>, name: string) =>
    plugin.tools.find((t) => t.names.includes(name))!.factory;

  it("reads config.runtime, with options given in code winning key by key", async () => {
    const plugin = createRuntimePlugin({ exec: { ask: "off" } });
    const tool = factoryOf(
      plugin,
      "exec",
    )({
      workspaceDir,
      config: {
        runtime: { exec: { security: "allowlist", allowlist: [{ pattern: "echo" }], ask: "always" } },
      },
    }) as ReturnType<typeof createExecTool>;
    expect(text(await tool.execute("c", { command: "echo configured" }))).toBe("configured");
    await expect(tool.execute("c", { command: "printf x" })).rejects.toThrow(
      "exec denied: allowlist miss: printf x",
    );
    expect(plugin.configSchema).toBeDefined();
    await plugin.dispose();
  });

  it("refuses a configuration it does not understand, naming the key", () => {
    expect(() => createRuntimePlugin({ exec: { safeBins: ["awk"] } })).toThrow(
      "Invalid configuration for runtime:\n  - exec.safeBins: no safe-bin profile for awk (profiled: jq, grep, cut, sort, uniq, head, tail, tr, wc); use allowlist entries for other programs",
    );
    const plugin = createRuntimePlugin();
    expect(() =>
      factoryOf(plugin, "exec")({ workspaceDir, config: { runtime: { exec: { secruity: "deny" } } } }),
    ).toThrow(
      /^Invalid configuration for runtime:\n {2}- exec: must not have additional properties \(secruity\)/,
    );
  });

  it("dispose() kills every running and background session with its whole process group", async () => {
    const plugin = createRuntimePlugin();
    const tool = factoryOf(plugin, "exec")({ workspaceDir }) as ReturnType<typeof createExecTool>;
    await tool.execute("c", { command: "sh -c 'sleep 4545 & sleep 4545'", background: true });
    const foreground = tool
      .execute("c", { command: "sh -c 'sleep 4646 & sleep 4646'" })
      .catch((error: Error) => error.message);
    await waitFor(
      () => processesMatching("sleep 4545").length >= 2 && processesMatching("sleep 4646").length >= 2,
    );
    await plugin.dispose();
    // dispose resolves once each session's leader has exited; the rest of its group got the same
    // SIGKILL but may take a moment longer to die on a loaded machine
    await waitFor(
      () => processesMatching("sleep 4545").length + processesMatching("sleep 4646").length === 0,
    );
    expect(processesMatching("sleep 4545")).toEqual([]);
    expect(processesMatching("sleep 4646")).toEqual([]);
    expect(await foreground).toBe("Command aborted by signal SIGKILL");
    await plugin.dispose(); // idempotent
  });

  it("loads node-pty on the first pty run, not before", async () => {
    await exec.execute("c", { command: "true" });
    expect(ptyLoaded()).toBe(false);
    expect(text(await exec.execute("c", { command: "echo tty", pty: true }))).toBe("tty");
    expect(ptyLoaded()).toBe(true);
  });
});

describe("through createToolset (validation, configuration, dispose)", () => {
  it("validates arguments against the schema, aliases included, and disposes the section", async () => {
    const { createToolset } = await import("@clawtools/core");
    const plugin = createRuntimePlugin();
    const toolset = createToolset({
      plugins: [plugin],
      context: {
        workspaceDir,
        config: {
          runtime: {
            exec: { security: "allowlist", allowlist: [{ pattern: "echo" }, { pattern: "sleep" }] },
          },
        },
      },
    });
    try {
      const execTool = toolset.tools.find((t) => t.name === "exec")!;
      const ok = await execTool.execute("1", {
        command: "echo via toolset",
        timeoutSeconds: "30",
        title: "t",
      });
      expect(text(ok)).toBe("via toolset");
      const unknown = await execTool.execute("2", { command: "echo x", timeout_seconds: 3 });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toContain("must not have additional properties (timeout_seconds)");
      const denied = await execTool.execute("3", { command: "id" });
      expect(text(denied)).toContain("exec denied: allowlist miss: id");
      const bg = await execTool.execute("4", { command: "sleep 4747", background: true });
      expect(text(bg)).toMatch(/^Command still running/);
      expect(processesMatching("sleep 4747").length).toBeGreaterThan(0);
    } finally {
      await toolset.dispose();
    }
    expect(processesMatching("sleep 4747")).toEqual([]);
  });
});
