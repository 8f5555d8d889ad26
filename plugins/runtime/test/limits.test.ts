import { describe, expect, it } from "vitest";
import { createExecTool, ProcessRegistry, resolveSessionLimits, resolveYieldMs } from "../src/index.js";
import { text } from "./helpers.js";

describe("session limits", () => {
  it("take OpenClaw's defaults, its environment variables, then explicit options, always clamped", () => {
    expect(resolveSessionLimits({}, {})).toEqual({
      maxOutputChars: 200_000,
      pendingMaxOutputChars: 30_000,
      retentionMs: 1_800_000,
    });
    const env = {
      PI_BASH_MAX_OUTPUT_CHARS: "5000",
      OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS: "999999",
      PI_BASH_JOB_TTL_MS: "1000",
    };
    expect(resolveSessionLimits({}, env)).toEqual({
      maxOutputChars: 5_000,
      pendingMaxOutputChars: 200_000,
      retentionMs: 60_000,
    });
    expect(
      resolveSessionLimits({ maxOutputChars: 3_000 }, { ...env, OPENCLAW_BASH_MAX_OUTPUT_CHARS: "4000" }),
    ).toMatchObject({ maxOutputChars: 3_000 });
    expect(
      resolveSessionLimits({}, { OPENCLAW_BASH_MAX_OUTPUT_CHARS: "4000", PI_BASH_MAX_OUTPUT_CHARS: "5000" }),
    ).toMatchObject({ maxOutputChars: 4_000 });
    expect(resolveSessionLimits({}, { PI_BASH_MAX_OUTPUT_CHARS: "lots" })).toMatchObject({
      maxOutputChars: 200_000,
    });
    expect(resolveYieldMs(undefined, {})).toBe(10_000);
    expect(resolveYieldMs(undefined, { PI_BASH_YIELD_MS: "500000" })).toBe(120_000);
    expect(resolveYieldMs(5, { PI_BASH_YIELD_MS: "2000" })).toBe(10);
  });

  it("cap what a run shows to the configured limit: head and tail around a notice", async () => {
    const registry = new ProcessRegistry({ maxOutputChars: 1_000 });
    const exec = createExecTool({ workspaceDir: process.cwd() }, { registry });
    const out = text(await exec.execute("c", { command: "seq 1 2000" }));
    expect(out.length).toBeLessThanOrEqual(1_000);
    expect(out.startsWith("1\n2\n")).toBe(true);
    expect(out).toMatch(
      /\n\[\.\.\. \d+ characters \(\d+ lines\) left out here; the whole output \(8893 characters, 2000 lines\) is in /,
    );
    expect(out.endsWith("1999\n2000")).toBe(true);
    await registry.dispose();
  });

  it("read the yield window from PI_BASH_YIELD_MS when the tool is built", async () => {
    const registry = new ProcessRegistry();
    process.env.PI_BASH_YIELD_MS = "50";
    try {
      const exec = createExecTool({ workspaceDir: process.cwd() }, { registry });
      expect(text(await exec.execute("c", { command: "sleep 2" }))).toMatch(/^Command still running/);
    } finally {
      delete process.env.PI_BASH_YIELD_MS;
      registry.killAll();
    }
  });
});
