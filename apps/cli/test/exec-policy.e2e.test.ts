/**
 * The exec policy as a user meets it in the built CLI: `exec-policy check` prints the decision,
 * the rule with its file:line and each parsed command; `call exec` with the same config never
 * starts a denied command (no marker file) and runs the allow side.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, ensureBuilt } from "./support/cli.js";

beforeAll(() => ensureBuilt(), 600_000);

const dir = mkdtempSync(path.join(tmpdir(), "cli-exec-policy-"));
const workspace = path.join(dir, "ws");
const marker = path.join(dir, "marker");
execFileSync("mkdir", ["-p", workspace]);
writeFileSync(path.join(workspace, "notes.txt"), 'never run "rm -rf" here\n');
const claude = path.join(dir, "settings.json");
writeFileSync(
  claude,
  JSON.stringify({ permissions: { deny: ["Bash(git push:*)", "Bash(touch *)"] } }, null, 2),
);
const codex = path.join(dir, "policy.rules");
writeFileSync(
  codex,
  `prefix_rule(\n  pattern=["rm", ["-rf", "-fr"]],\n  decision="forbidden",\n  justification="use trash",\n  match=["rm -rf /tmp/x"],\n  not_match=["rm -r x"],\n)\n`,
);
const config = path.join(dir, "config.json");
writeFileSync(config, JSON.stringify({ runtime: { execPolicy: { claude: [claude], codex: [codex] } } }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const check = (command: string, configFile = config) =>
  spawnSync(process.execPath, [bin, "exec-policy", "check", "--config", configFile, "--", command], {
    encoding: "utf8",
  });
const callExec = (command: string) =>
  spawnSync(
    process.execPath,
    [
      bin,
      "call",
      "exec",
      "--workspace",
      workspace,
      "--config",
      config,
      "--args",
      JSON.stringify({ command }),
    ],
    { encoding: "utf8" },
  );

describe("clawtools exec-policy check", () => {
  it("prints the decision, the rule with file:line and every simple command as parsed", () => {
    const run = check("cd repo && bash -c 'g\"i\"t push origin main'");
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.decision).toBe("deny");
    expect(out.rule).toBe("Bash(git push:*)");
    expect(out.source).toBe(`${claude}:4`);
    expect(out.commands.map((c: { argv: string[] }) => c.argv.join(" "))).toEqual([
      "cd repo",
      'bash -c g"i"t push origin main',
      "git push origin main",
    ]);
    expect(out.commands[2].via).toEqual(["bash -c"]);
  });

  it("the Codex rule answers with its line; a quoted mention is no command", () => {
    const denied = JSON.parse(check("find . -name '*.o' -exec rm -fr {} +").stdout);
    expect(denied).toMatchObject({ decision: "deny", source: `${codex}:1` });
    expect(denied.reason).toContain("use trash");
    expect(JSON.parse(check('echo "git push" && grep -r "rm -rf" .').stdout).decision).toBe("none");
  });

  it("a failing match example fails with one line naming it", () => {
    const bad = path.join(dir, "bad.rules");
    writeFileSync(bad, `prefix_rule(pattern=["npm", "publish"], match=["npm install"])\n`);
    const badConfig = path.join(dir, "bad.json");
    writeFileSync(badConfig, JSON.stringify({ runtime: { execPolicy: { codex: [bad] } } }));
    const run = check("ls", badConfig);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${bad}:1: match example "npm install" does not match`);
  });
});

describe("clawtools call exec under the policy", () => {
  it("a denied command never starts; the error names the rule, its file:line and the command", () => {
    const run = callExec(`cd ${dir} && eval "touch ${marker}"`);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).error).toBe(
      `exec denied by rule Bash(touch *) from ${claude}:5 matched "touch ${marker}" (inside eval)`,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("commands that only mention a denied word run", () => {
    const run = callExec('echo "git push"; grep -r "rm -rf" .');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("git push");
    expect(run.stdout).toContain('notes.txt:never run "rm -rf" here');
  });
});

describe("clawtools call exec with runtime.sandbox", () => {
  it("runs in bubblewrap: the workspace writable, nothing outside it, and the result says so", () => {
    const sandboxConfig = path.join(dir, "sandbox.json");
    writeFileSync(sandboxConfig, JSON.stringify({ runtime: { sandbox: "bwrap" } }));
    const command = `echo made > made.txt; touch ../escaped ${dir}/escaped-too /usr/clawtools-e2e-marker; echo done`;
    const run = spawnSync(
      process.execPath,
      [
        bin,
        "call",
        "exec",
        "--workspace",
        workspace,
        "--config",
        sandboxConfig,
        "--json",
        "--args",
        JSON.stringify({ command }),
      ],
      { encoding: "utf8" },
    );
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.details.sandbox).toBe("bwrap");
    expect(result.content[0].text).toContain("Read-only file system");
    expect(existsSync(path.join(workspace, "made.txt"))).toBe(true);
    expect(existsSync(path.join(dir, "escaped"))).toBe(false);
    expect(existsSync(path.join(dir, "escaped-too"))).toBe(false);
    expect(existsSync("/usr/clawtools-e2e-marker")).toBe(false);
  });
});
