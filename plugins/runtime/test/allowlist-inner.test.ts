/**
 * exec under security=allowlist judges every program a command starts, as the exec rules do
 * (one shell grammar, shell-grammar.ts, and its unwrapping of wrappers, xargs, find -exec and
 * shell -c strings): an allowlisted wrapper or shell no longer lets anything through. Before,
 * allowlist mode read commands with its own strict parser and checked only each first word, so
 * every command refused below ran (and left its marker).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createExecTool, evaluateAllowlist, ProcessRegistry } from "../src/index.js";
import { text } from "./helpers.js";

const registry = new ProcessRegistry();
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-allow-inner-"));
const marker = path.join(workspaceDir, "ran");
afterAll(() => {
  registry.killAll();
  rmSync(workspaceDir, { recursive: true, force: true });
});
afterEach(() => expect(existsSync(marker)).toBe(false));

const allowlist = [
  { pattern: "echo" },
  { pattern: "timeout" },
  { pattern: "xargs" },
  { pattern: "find" },
  { pattern: "bash" },
  { pattern: "env" },
];
const tool = createExecTool(
  { workspaceDir, sessionKey: "inner" },
  { registry, security: "allowlist", allowlist },
);

describe("allowlist: what a wrapper, xargs, find -exec or bash -c runs must be allowlisted too", () => {
  it.each([
    [`timeout 5 touch ${marker}`, `allowlist miss: touch ${marker}`],
    [`echo ${marker} | xargs touch`, "exec denied: allowlist miss: touch"],
    [`find ${workspaceDir} -maxdepth 0 -exec touch ${marker} \\;`, `allowlist miss: touch ${marker}`],
    [`bash -c 'touch ${marker}'`, `allowlist miss: touch ${marker}`],
    [`env touch ${marker}`, `allowlist miss: touch ${marker}`],
    [`timeout 5 bash -c 'timeout 5 touch ${marker}'`, `allowlist miss: touch ${marker}`],
  ])("%s", async (command, message) => {
    const miss = await tool.execute("c", { command }).catch((error: Error) => error.message);
    expect(miss).toContain(message);
  });

  it("refuses what a nested command line or a wrapper would set up around an allowlisted program", async () => {
    await expect(tool.execute("c", { command: `bash -c 'echo x > ${marker}'` })).rejects.toThrow(
      `exec denied: allowlist miss: echo x > ${marker} (redirection inside a nested command line)`,
    );
    await expect(tool.execute("c", { command: "env LD_PRELOAD=/tmp/x.so echo hi" })).rejects.toThrow(
      "exec denied: allowlist miss: env LD_PRELOAD=/tmp/x.so echo hi (environment assignment)",
    );
    await expect(tool.execute("c", { command: `bash -c 'F=1 touch ${marker}'` })).rejects.toThrow(
      `(environment assignment)`,
    );
    await expect(tool.execute("c", { command: "bash -c 'echo $HOME'" })).rejects.toThrow(
      "exec denied: allowlist miss: echo $HOME ($HOME is only known when it runs)",
    );
    await expect(tool.execute("c", { command: "bash script.sh" })).rejects.toThrow(
      "(runs a script file (its contents are not judged))",
    );
  });

  it("runs what is allowlisted all the way down, each program by its checked path", async () => {
    expect(text(await tool.execute("c", { command: "timeout 5 echo hi" }))).toBe("hi");
    expect(text(await tool.execute("c", { command: `bash -c 'echo "a b"'` }))).toBe("a b");
    expect(text(await tool.execute("c", { command: "echo one two | xargs echo got" }))).toBe("got one two");
    // quoting that spells a name, and a comment after the command
    expect(text(await tool.execute("c", { command: `'e'ch"o" spelled # a comment` }))).toBe("spelled");
    const verdict = evaluateAllowlist("timeout 5 env -i echo 'a b' # done", {
      entries: allowlist,
      safeBins: [],
      trustedDirs: ["/usr/bin"],
      searchPath: ["/usr/bin"],
      cwd: workspaceDir,
      workspaceDir,
      allowRedirections: false,
    });
    expect(verdict).toEqual({
      ok: true,
      command: "/usr/bin/timeout 5 /usr/bin/env -i /usr/bin/echo 'a b'",
    });
  });
});
