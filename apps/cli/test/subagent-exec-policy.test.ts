import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRuntimePlugin } from "@clawtools/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { runToolset } from "clawtools/compose";

// A sub-agent's run gets a runtime of its own, built from the same config: the same exec policy
// and the same sandbox as the server's exec.
const dir = mkdtempSync(path.join(tmpdir(), "cli-subagent-exec-"));
const marker = path.join(dir, "marker");
const runtime = createRuntimePlugin();
afterAll(async () => {
  await runtime.dispose?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("a sub-agent's exec", () => {
  it("is judged by runtime.execPolicy and runs in runtime.sandbox", async () => {
    const set = runToolset({
      plugins: [],
      runtime,
      context: {
        workspaceDir: dir,
        config: {
          runtime: { execPolicy: { rules: [{ decision: "deny", command: ["touch"] }] }, sandbox: "bwrap" },
        },
      },
      sessionKey: "agent:cli:subagent:1",
      depth: 1,
      operator: { profile: "full" },
    });
    const exec = set.tools.find((t) => t.name === "exec")!;
    const denied = await exec.execute("s1", { command: `bash -c "touch ${marker}"` });
    expect(denied.isError).toBe(true);
    const body = JSON.parse((denied.content[0] as { text: string }).text);
    expect(body.error).toBe(
      `exec denied by rule ["touch"] from runtime.execPolicy.rules[0] matched "touch ${marker}" (inside bash -c)`,
    );
    expect(existsSync(marker)).toBe(false);
    const ran = await exec.execute("s2", { command: "echo inside" });
    expect((ran.details as { sandbox?: string }).sandbox).toBe("bwrap");
  });
});
