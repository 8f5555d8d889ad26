import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  APPROVE_REFUSED,
  type BackgroundExitNotice,
  COMPLEX_INTERPRETER_REFUSED,
  createExecTool,
  ProcessRegistry,
} from "../src/index.js";
import { text, waitFor } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.killAll());
const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-guards-"));
const exec = createExecTool({ workspaceDir, sessionKey: "g" }, { registry });

/** Each command is refused with `message` before anything runs. */
const refusesEach = (commands: string[], message: string) =>
  it.each(commands)("%s", async (command) => {
    await expect(exec.execute("c", { command })).rejects.toThrow(message);
  });

describe("exec refuses /approve commands", () => {
  refusesEach(
    [
      "/approve abc123 allow-once",
      "/approve@bot abc123 always",
      "echo hi; /approve abc123 deny",
      "FOO=1 env -i /approve abc123 allow-always",
      "sudo -u root /approve abc123 deny",
      "sh -c '/approve abc123 allow-once'",
      'bash -lc "env X=1 /approve abc123 deny"',
      "env -S '/approve abc123 deny'",
      "nohup command /approve abc123 deny",
    ],
    APPROVE_REFUSED,
  );

  it("leaves look-alikes alone", async () => {
    const r = await exec.execute("c", { command: "echo '/approve abc123 allow-once'" });
    expect(text(r)).toBe("/approve abc123 allow-once");
  });
});

describe("exec script preflight", () => {
  it("refuses a Python script with shell variables, naming the line and the fix", async () => {
    writeFileSync(path.join(workspaceDir, "bad.py"), 'import os\n\nprint("home is", $HOME)\n');
    await expect(exec.execute("c", { command: "python3 -u bad.py --flag" })).rejects.toThrow(
      [
        "exec preflight: detected likely shell variable injection ($HOME) in python script: bad.py:3.",
        'In Python, use os.environ.get("HOME") instead of raw $HOME.',
        "(If this is inside a string literal on purpose, escape it or restructure the code.)",
      ].join("\n"),
    );
  });

  it("refuses a Node script with shell variables or a shell first line, also behind wrappers", async () => {
    writeFileSync(path.join(workspaceDir, "bad.js"), "const dir = $PWD_DIR;\n");
    await expect(exec.execute("c", { command: "cd . && env A=1 node bad.js" })).rejects.toThrow(
      'In Node.js, use process.env["PWD_DIR"] instead of raw $PWD_DIR.',
    );
    writeFileSync(path.join(workspaceDir, "shell.js"), "\nNODE --version\n");
    await expect(exec.execute("c", { command: "sh -c 'node shell.js'" })).rejects.toThrow(
      "exec preflight: JS file starts with shell syntax (NODE --version). This looks like a shell command, not JavaScript.",
    );
  });

  it("runs clean scripts, inline code and scripts outside the working directory", async () => {
    writeFileSync(path.join(workspaceDir, "ok.js"), "const $el = 1; console.log('ok', $el);\n");
    expect(text(await exec.execute("c", { command: "node ok.js" }))).toBe("ok 1");
    // -e code is not a script file; nothing to read
    expect(text(await exec.execute("c", { command: "node -e 'console.log(2)' bad.js" }))).toBe("2");
    // files outside the working directory are not read: the run goes ahead (and fails on its own)
    const elsewhere = mkdtempSync(path.join(tmpdir(), "clawtools-guards-out-"));
    writeFileSync(path.join(elsewhere, "leak.js"), "console.log($LEAKED_VAR);\n");
    const r = await exec.execute("c", { command: `node ${path.join(elsewhere, "leak.js")}` });
    expect(text(r)).toMatch(/ReferenceError[\s\S]*\(Command exited with code 1\)$/);
    // nor through a symbolic link inside it: core's containment refuses the link out, so the
    // outside file's text never reaches an error message
    symlinkSync(path.join(elsewhere, "leak.js"), path.join(workspaceDir, "link.js"));
    const linked = await exec.execute("c", { command: "node link.js" });
    expect(text(linked)).toMatch(/ReferenceError[\s\S]*\(Command exited with code 1\)$/);
    // a link that stays inside is followed and checked
    symlinkSync(path.join(workspaceDir, "bad.js"), path.join(workspaceDir, "inside-link.js"));
    await expect(exec.execute("c", { command: "node inside-link.js" })).rejects.toThrow(
      'In Node.js, use process.env["PWD_DIR"] instead of raw $PWD_DIR.',
    );
  });
});

describe("exec refuses interpreters fed a script it cannot read first", () => {
  refusesEach(
    [
      "cat tool.py | python3",
      "python3 < tool.py",
      "python3 -u - < tool.py",
      "python3 <(cat tool.py)",
      "cd . && node < tool.js",
      "sh -c 'cat tool.js | node'",
    ],
    COMPLEX_INTERPRETER_REFUSED,
  );

  it("lets through pipes that feed data, not programs", async () => {
    writeFileSync(path.join(workspaceDir, "data.json"), '{"a":1}\n');
    expect(
      text(
        await exec.execute("c", { command: "cat data.json | node -e 'process.stdin.pipe(process.stdout)'" }),
      ),
    ).toBe('{"a":1}');
    expect(text(await exec.execute("c", { command: "ls *.py | wc -l" }))).toMatch(/^\d+$/);
    writeFileSync(path.join(workspaceDir, "echo.js"), "process.stdin.pipe(process.stdout);\n");
    expect(text(await exec.execute("c", { command: "echo hi | node echo.js" }))).toBe("hi");
  });
});

describe("exec background exit notices", () => {
  it("reports a background run's end with OpenClaw's text, and skips silent successes", async () => {
    const notices: BackgroundExitNotice[] = [];
    const notifying = createExecTool(
      { workspaceDir, sessionKey: "n" },
      { registry, onBackgroundExit: (n) => notices.push(n) },
    );
    const loud = await notifying.execute("c", { command: "echo  done   here; exit 4", background: true });
    const quiet = await notifying.execute("c", { command: "true", background: true });
    await notifying.execute("c", { command: "echo foreground" });
    const loudId = (loud.details as { sessionId: string }).sessionId;
    expect(await waitFor(() => notices.length >= 1)).toBe(true);
    await registry.get("n", (quiet.details as { sessionId: string }).sessionId)!.exited;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(notices).toEqual([
      {
        sessionKey: "n",
        sessionId: loudId,
        status: "failed",
        exitCode: 4,
        exitSignal: null,
        text: `Exec failed (${loudId.slice(0, 8)}, code 4) :: done here`,
      },
    ]);
  });

  it("reports silent successes when asked, and nothing when turned off", async () => {
    const notices: string[] = [];
    const tool = createExecTool(
      { workspaceDir, sessionKey: "m" },
      { registry, onBackgroundExit: (n) => notices.push(n.text), notifyOnExitEmptySuccess: true },
    );
    const r = await tool.execute("c", { command: "true", background: true });
    const id = (r.details as { sessionId: string }).sessionId;
    expect(await waitFor(() => notices.length === 1)).toBe(true);
    expect(notices[0]).toBe(`Exec completed (${id.slice(0, 8)}, code 0)`);

    const off: string[] = [];
    const silent = createExecTool(
      { workspaceDir, sessionKey: "o" },
      { registry, onBackgroundExit: (n) => off.push(n.text), notifyOnExit: false },
    );
    const s = await silent.execute("c", { command: "echo x", background: true });
    // the tool's exit handler was attached to `exited` when the command started, before this
    // await: by the time it resumes, a notice would have been sent
    await registry.get("o", (s.details as { sessionId: string }).sessionId)!.exited;
    expect(off).toEqual([]);
  });
});
