/**
 * exec under security=allowlist, attacked for real: each bypass class is run through the tool
 * in a temp workspace, and afterwards no marker file exists (nothing outside the allowlist ran)
 * and every file inside and outside the workspace is byte for byte what it was.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createExecTool,
  type ExecApprovalRequest,
  evaluateAllowlist,
  ProcessRegistry,
} from "../src/index.js";
import { text } from "./helpers.js";

const registry = new ProcessRegistry();
afterAll(() => registry.killAll());

const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-allow-ws-"));
const outside = mkdtempSync(path.join(tmpdir(), "clawtools-allow-out-"));
const secret = path.join(outside, "secret.txt");
const marker = path.join(outside, "pwned");
writeFileSync(secret, "s3cret\n");
writeFileSync(path.join(workspaceDir, "notes.txt"), "keep\n");
symlinkSync(secret, path.join(workspaceDir, "link"));

/** Every file under the two directories with its content. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dir of [workspaceDir, outside]) {
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      const file = path.join(dir, name);
      try {
        out[file] = readFileSync(file, "utf8");
      } catch {
        out[file] = "<dir>";
      }
    }
  }
  return out;
}

const ctx = { workspaceDir, sessionKey: "allow" };
const allowlist = [
  { pattern: "echo" },
  { pattern: "git", argPattern: "ls-remote .*" },
  { pattern: "env", argPattern: "" },
];
const strict = createExecTool(ctx, { registry, security: "allowlist", allowlist });

let before: Record<string, string>;
beforeEach(() => {
  before = snapshot();
});
afterEach(() => {
  expect(existsSync(marker)).toBe(false);
  expect(snapshot()).toEqual(before);
});

const refuses = (tool: typeof strict, cases: Array<[string, string]>) =>
  it.each(cases)("%s", async (command, message) => {
    await expect(tool.execute("c", { command })).rejects.toThrow(message);
  });

describe("allowlist: what the reader cannot fully understand is refused, never allowed", () => {
  const unanalysable = (reason: string) => `exec denied: command could not be analysed (${reason})`;
  refuses(strict, [
    [`tou\\\nch ${marker}`, unanalysable("line continuation")],
    [`echo "a\\\nb"; touch ${marker}`, unanalysable("line continuation")],
    [`echo $(touch ${marker})`, unanalysable("command substitution")],
    [`echo "$(touch ${marker})"`, unanalysable("expansion inside double quotes")],
    [`echo \`touch ${marker}\``, unanalysable("command substitution")],
    ["echo $HOME", unanalysable("variable expansion ($)")],
    ["echo $'\\x41'", unanalysable("variable expansion ($)")],
    [`echo hi <<EOF\ntouch ${marker}\nEOF`, unanalysable("heredoc")],
    ["echo hi <<< x", unanalysable("here-string")],
    [`echo <(touch ${marker})`, unanalysable("process substitution")],
    [`touch ${marker} &`, unanalysable("background job (&)")],
    [`(touch ${marker})`, unanalysable("subshell or function definition")],
    [`{ touch ${marker}; }`, unanalysable("brace group or expansion")],
    [`if true; then touch ${marker}; fi`, unanalysable("shell keyword if")],
    ["echo *", unanalysable("glob pattern (*)")],
    ["echo ~/x", unanalysable("tilde expansion")],
    [`echo 'unbalanced`, unanalysable("unbalanced single quote")],
    [`echo hi &> ${marker}`, unanalysable("&> redirection")],
    [`echo hi >& ${marker}`, unanalysable("redirection >& to a file")],
  ]);
});

describe("allowlist: redirections are file accesses", () => {
  const refused = (text: string, redirect: string) =>
    `exec denied: allowlist miss: ${text} (redirection ${redirect}: file redirections are refused in allowlist mode; set exec.allowRedirections to allow them inside the workspace)`;
  refuses(strict, [
    [`echo < ${secret}`, refused("echo", `0<${secret}`)],
    ["echo x > notes.txt", refused("echo x", "1>notes.txt")],
    ["echo x >> notes.txt", refused("echo x", "1>>notes.txt")],
    [`echo x 2> ${marker}`, refused("echo x", `2>${marker}`)],
  ]);

  const open = createExecTool(ctx, { registry, security: "allowlist", allowlist, allowRedirections: true });
  refuses(open, [
    [
      `echo x > ${marker}`,
      `exec denied: allowlist miss: echo x (redirection 1>${marker}: outside the workspace)`,
    ],
    ["echo x > link", "exec denied: allowlist miss: echo x (redirection 1>link: outside the workspace)"],
    [
      "echo x > ../pwned",
      "exec denied: allowlist miss: echo x (redirection 1>../pwned: outside the workspace)",
    ],
  ]);

  it("descriptor duplication and /dev/null touch no file and are allowed", async () => {
    expect(text(await strict.execute("c", { command: "echo a 2>&1 2>/dev/null" }))).toBe("a");
  });
});

describe("allowlist: redirections inside the workspace when configured", () => {
  afterEach(() => {
    // this one writes on purpose: the snapshot check above sees out.txt appear, so record it
    before = snapshot();
  });
  it("writes a new file inside the workspace", async () => {
    const open = createExecTool(ctx, { registry, security: "allowlist", allowlist, allowRedirections: true });
    await open.execute("c", { command: "echo hi > out.txt" });
    expect(readFileSync(path.join(workspaceDir, "out.txt"), "utf8")).toBe("hi\n");
  });
});

describe("allowlist: safe bins take only the options their profile allows", () => {
  const bins = createExecTool(ctx, {
    registry,
    security: "allowlist",
    allowlist,
    safeBins: ["wc", "sort", "head", "tail", "tr", "cut", "uniq", "grep"],
  });
  const miss = (what: string) => `exec denied: allowlist miss: ${what}`;
  refuses(bins, [
    [
      `wc --files0-from=${secret}`,
      miss(`wc --files0-from=${secret} (option --files0-from of wc reads or writes files)`),
    ],
    [
      `wc --files0 ${secret}`,
      miss(`wc --files0 ${secret} (option --files0-from of wc reads or writes files)`),
    ],
    ["echo b | sort -o notes.txt", miss("sort -o notes.txt (option -o of sort reads or writes files)")],
    [
      "echo b | sort --output=notes.txt",
      miss("sort --output=notes.txt (option --output of sort reads or writes files)"),
    ],
    [`grep -f ${secret}`, miss(`grep -f ${secret} (option -f of grep reads or writes files)`)],
    [`tail -f ${secret}`, miss(`tail -f ${secret} (option -f of tail reads or writes files)`)],
    [`head -n 1 ${secret}`, miss(`head -n 1 ${secret} (operand ${secret} could name a file)`)],
    ["head notes.txt", miss("head notes.txt (head reads stdin only; file operands are not allowed)")],
    ["echo x | head --bogus", miss("head --bogus (option --bogus is not allowed for safe bin head)")],
    ["echo x | cut -d / -f 1", miss("cut -d / -f 1 (option -d of cut needs a plain value)")],
  ]);

  it("run as the profile allows", async () => {
    expect(text(await bins.execute("c", { command: "echo b a | tr ' ' '\\n' | sort | head -n 1" }))).toBe(
      "a",
    );
    expect(text(await bins.execute("c", { command: "echo a b c | wc -w" }))).toBe("3");
  });
});

describe("allowlist: the environment cannot smuggle a program in", () => {
  refuses(strict, [
    [
      `GIT_SSH_COMMAND='touch ${marker}' git ls-remote ssh://example.invalid/r`,
      `exec denied: allowlist miss: GIT_SSH_COMMAND=touch ${marker} git ls-remote ssh://example.invalid/r (environment assignment)`,
    ],
  ]);

  it.each([
    "GIT_SSH_COMMAND",
    "GIT_PROXY_COMMAND",
    "CC",
    "MAKEFLAGS",
    "PAGER",
    "HTTPS_PROXY",
    "NODE_EXTRA_CA_CERTS",
    "PIP_INDEX_URL",
    "AWS_SECRET_ACCESS_KEY",
    "GIT_CONFIG_KEY_0",
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
  ])("the call may not set %s", async (key) => {
    await expect(
      strict.execute("c", {
        command: "git ls-remote ssh://example.invalid/r",
        env: { [key]: `touch ${marker}` },
      }),
    ).rejects.toThrow(
      `Security Violation: Environment variable '${key}' is forbidden during host execution.`,
    );
  });

  it("drops dangerous inherited variables before an allowlisted program runs", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      GIT_SSH_COMMAND: `touch ${marker}`,
      MAKEFLAGS: "--eval=x",
      AWS_SECRET_ACCESS_KEY: "k",
      BASH_ENV: marker,
      GIT_CONFIG_COUNT: "1",
      LD_PRELOAD: "/x.so",
    });
    try {
      // git really runs; with GIT_SSH_COMMAND passed on it would have run `touch`
      const git = text(await strict.execute("c", { command: "git ls-remote ssh://example.invalid/r" }));
      expect(git).toMatch(/\(Command exited with code 128\)$/);
      const env = text(await strict.execute("c", { command: "env" }));
      for (const key of [
        "GIT_SSH_COMMAND",
        "MAKEFLAGS",
        "AWS_SECRET_ACCESS_KEY",
        "BASH_ENV",
        "GIT_CONFIG_COUNT",
        "LD_PRELOAD",
      ])
        expect(env).not.toMatch(new RegExp(`^${key}=`, "m"));
      expect(env).toMatch(/^HOME=/m);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    }
  });

  it("shows the approval handler the environment the command will get", async () => {
    const requests: ExecApprovalRequest[] = [];
    process.env.NODE_OPTIONS = "--require /x.js";
    try {
      const asking = createExecTool(ctx, {
        registry,
        security: "allowlist",
        ask: "on-miss",
        allowlist,
        approval: async (request) => {
          requests.push(request);
          return "deny";
        },
      });
      await expect(asking.execute("c", { command: "printf hi", env: { FOO: "bar" } })).rejects.toThrow(
        "exec denied: Denied by user",
      );
      expect(requests[0]).toMatchObject({
        command: "printf hi",
        reason: "allowlist miss: printf hi",
        host: "gateway",
        envOverrides: { FOO: "bar" },
      });
      expect(requests[0]!.env.FOO).toBe("bar");
      expect(requests[0]!.env.HOME).toBe(process.env.HOME);
      expect(requests[0]!.env.NODE_OPTIONS).toBeUndefined();
    } finally {
      delete process.env.NODE_OPTIONS;
    }
  });
});

describe("allowlist: the binary that was checked is the binary that runs", () => {
  const fakeBin = mkdtempSync(path.join(tmpdir(), "clawtools-allow-bin-"));
  const fake = `#!/bin/sh\ntouch ${marker}\necho fake\n`;
  writeFileSync(path.join(fakeBin, "wc"), fake);
  chmodSync(path.join(fakeBin, "wc"), 0o755);
  const workspaceBin = path.join(workspaceDir, "bin");
  mkdirSync(workspaceBin);
  writeFileSync(path.join(workspaceBin, "echo"), fake);
  chmodSync(path.join(workspaceBin, "echo"), 0o755);

  const withPath = async (prefix: string, fn: () => Promise<void>) => {
    const saved = process.env.PATH;
    process.env.PATH = `${prefix}:${saved}`;
    try {
      await fn();
    } finally {
      process.env.PATH = saved;
    }
  };

  it("a safe bin runs from the trusted directories, whatever PATH finds first", async () => {
    await withPath(fakeBin, async () => {
      expect(text(await strict.execute("c", { command: "echo a b | wc -w" }))).toBe("2");
    });
  });

  it("an allowlisted name never resolves to a program inside the workspace", async () => {
    await withPath(workspaceBin, async () => {
      await expect(strict.execute("c", { command: "echo hi" })).rejects.toThrow(
        `exec denied: allowlist miss: echo hi (echo resolves to ${path.join(workspaceBin, "echo")}, inside the workspace)`,
      );
    });
  });

  it("a bare allowlist name never matches a same-named file the model wrote into the workspace", async () => {
    for (const command of ["./bin/echo hi", `${path.join(workspaceBin, "echo")} hi`]) {
      await expect(strict.execute("c", { command })).rejects.toThrow(
        `exec denied: allowlist miss: ${command}`,
      );
    }
  });

  it("the command that runs names every program by its checked absolute path", () => {
    const verdict = evaluateAllowlist("echo 'a b' | wc -l && echo \"it's\" 2>&1", {
      entries: [{ pattern: "echo" }],
      safeBins: ["wc"],
      trustedDirs: ["/usr/bin"],
      searchPath: ["/usr/bin"],
      cwd: workspaceDir,
      workspaceDir,
      allowRedirections: false,
    });
    expect(verdict).toEqual({
      ok: true,
      command: "/usr/bin/echo 'a b' | /usr/bin/wc -l && /usr/bin/echo 'it'\\''s' 2>&1",
    });
  });

  it("wrappers and shells are programs like any other: a miss unless allowlisted", async () => {
    for (const command of [
      `echo hi | sh -c 'touch ${marker}'`,
      `eval touch ${marker}`,
      `exec touch ${marker}`,
    ]) {
      await expect(strict.execute("c", { command })).rejects.toThrow(/^exec denied: allowlist miss: /);
    }
  });
});
