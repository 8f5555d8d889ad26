import { describe, expect, it } from "vitest";
import { isBlockedEnvKey, readPlain, safeBinProblem, sanitizeEnv } from "../src/index.js";

/** The reading without the grammar's own objects (they are checked through the allowlist). */
const plain = (line: string) => {
  const read = readPlain(line);
  if (!read.ok) return read;
  return {
    ok: true,
    commands: read.commands.map(({ assignments, argv, redirects }) => ({ assignments, argv, redirects })),
    connectors: read.connectors,
  };
};

describe("the allowlist's reading, on the rules' shell grammar", () => {
  it("reads words, quotes, connectors, comments and redirections", () => {
    expect(
      plain('A=1 git log --format=\'%h %s\' 2>&1 | head -n 3 # recent\necho "done \\"ok\\"" ||\n  echo no; '),
    ).toEqual({
      ok: true,
      commands: [
        {
          assignments: ["A=1"],
          argv: ["git", "log", "--format=%h %s"],
          redirects: [{ fd: 2, op: ">&", target: "1" }],
        },
        { assignments: [], argv: ["head", "-n", "3"], redirects: [] },
        { assignments: [], argv: ["echo", 'done "ok"'], redirects: [] },
        { assignments: [], argv: ["echo", "no"], redirects: [] },
      ],
      connectors: ["|", ";", "||"],
    });
  });

  it("tells a quoted name from an assignment and a digit word from a descriptor", () => {
    expect(plain("'A=1' x")).toMatchObject({
      ok: true,
      commands: [{ assignments: [], argv: ["A=1", "x"] }],
    });
    expect(plain("echo a2>f")).toMatchObject({
      ok: true,
      commands: [{ argv: ["echo", "a2"], redirects: [{ fd: 1, op: ">", target: "f" }] }],
    });
    expect(plain("echo '2'>f")).toMatchObject({
      commands: [{ argv: ["echo", "2"], redirects: [{ fd: 1 }] }],
    });
  });

  it.each([
    ["echo a &&", "a connector with no command after it"],
    ["; echo a", "empty command before ;"],
    ["> f", "a command with no program (only assignments or redirections)"],
    ["echo >", "redirection without a target"],
    ["echo a |& cat", "|& pipe"],
    ["echo \u0007", "control character"],
    ["echo a\\", "trailing backslash"],
    ["", "empty command"],
  ])("refuses %j (%s)", (line, reason) => {
    expect(plain(line)).toEqual({ ok: false, reason });
  });
});

describe("safe-bin profiles", () => {
  it("accept what the profile allows and name what they refuse", () => {
    expect(safeBinProblem("head", ["-n", "5"])).toBeUndefined();
    expect(safeBinProblem("head", ["-n5", "-q"])).toBeUndefined();
    expect(safeBinProblem("tr", ["-d", "x"])).toBeUndefined();
    expect(safeBinProblem("tr", [])).toBe("tr takes 1..2 operands");
    expect(safeBinProblem("sort", ["-T", "/tmp"])).toBe("option -T of sort reads or writes files");
    expect(safeBinProblem("sort", ["--temp=/tmp"])).toBe(
      "option --temporary-directory of sort reads or writes files",
    );
    expect(safeBinProblem("jq", ["."])).toMatch(/^jq can read environment data/);
    expect(safeBinProblem("sed", ["s/a/b/"])).toMatch(/^sed scripts can execute commands/);
    expect(safeBinProblem("wc", ["-l", "-"])).toBeUndefined();
    expect(safeBinProblem("wc", ["--", "notes.txt"])).toBe(
      "wc reads stdin only; file operands are not allowed",
    );
  });
});

describe("host environment policy", () => {
  it("passes on what OpenClaw lets the host pass on, narrowed where it narrows", () => {
    const env = sanitizeEnv(
      {
        HOME: "/home/u",
        HTTPS_PROXY: "http://proxy",
        GIT_ALLOW_PROTOCOL: "https:ext:file",
        GIT_PROTOCOL_FROM_USER: "1",
        AWS_SECRET_ACCESS_KEY: "k",
        GH_TOKEN: "t",
        SSH_ASKPASS: "/x",
        NPM_CONFIG_USERCONFIG: "/x",
        LD_LIBRARY_PATH: "/x",
        TERM: "xterm",
      },
      { PAGER: "cat", FOO: "1" },
    );
    expect(env).toEqual({
      HOME: "/home/u",
      HTTPS_PROXY: "http://proxy",
      GIT_ALLOW_PROTOCOL: "https",
      GIT_PROTOCOL_FROM_USER: "0",
      TERM: "xterm",
      PAGER: "",
      FOO: "1",
    });
    expect(
      ["HOME", "ZDOTDIR", "KUBECONFIG", "TF_VAR_x", "CARGO_REGISTRIES_X_TOKEN"].filter(isBlockedEnvKey),
    ).toEqual(["HOME", "ZDOTDIR", "KUBECONFIG", "TF_VAR_x", "CARGO_REGISTRIES_X_TOKEN"]);
    expect(() => sanitizeEnv({}, { PAGER: "less" })).toThrow(
      "Security Violation: Environment variable 'PAGER' is forbidden during host execution.",
    );
  });
});
