/**
 * The exec policy, run for real: each bypass shape is given to the exec tool with a deny rule on
 * `touch`, and afterwards no marker file exists; the allow side (a denied word inside an
 * argument) really runs. Rules come from the config, a Claude Code settings.json and a Codex
 * .rules file.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createRuntimePlugin, type createExecTool, ExecPolicy } from "../src/index.js";
import { text } from "./helpers.js";

const workspaceDir = mkdtempSync(path.join(tmpdir(), "clawtools-policy-ws-"));
const outside = mkdtempSync(path.join(tmpdir(), "clawtools-policy-out-"));
const marker = path.join(outside, "marker");
const claudeFile = path.join(outside, "settings.json");
const codexFile = path.join(outside, "default.rules");
writeFileSync(
  claudeFile,
  `{\n  "permissions": {\n    "allow": ["Bash(echo:*)", "Read(./src/**)"],\n    "deny": [\n      "Bash(touch:*)"\n    ],\n    "ask": ["Bash(mkdir *)"]\n  }\n}\n`,
);
writeFileSync(
  codexFile,
  `# forbid chmod on anything\nprefix_rule(\n    pattern = ["chmod", ["+x", "777"]],\n    decision = "forbidden",\n    justification = "no permission changes",\n    match = ["chmod +x a", ["chmod", "777", "b"]],\n    not_match = ["chmod -R u+r c"],\n)\n`,
);

const plugins: ReturnType<typeof createRuntimePlugin>[] = [];
afterAll(() => {
  for (const p of plugins) p.registry.killAll();
  rmSync(workspaceDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

type ExecTool = ReturnType<typeof createExecTool>;
function execTool(runtime: Record<string, unknown>): ExecTool {
  const plugin = createRuntimePlugin();
  plugins.push(plugin);
  const reg = plugin.tools.find((t) => t.names.includes("exec"))!;
  return reg.factory({ workspaceDir, config: { runtime } }) as ExecTool;
}

const policy = {
  execPolicy: {
    rules: [{ decision: "deny", command: ["rm", "-rf"], justification: "no recursive deletes" }],
    claude: [claudeFile],
    codex: [codexFile],
  },
};

describe("exec policy through the exec tool", () => {
  const tool = execTool(policy);
  beforeEach(() => rmSync(marker, { force: true }));

  const bypasses = [
    `touch ${marker}`,
    `cd / && touch ${marker}`,
    `true; touch ${marker}`,
    `false || touch ${marker}`,
    `echo x | touch ${marker}`,
    `echo x |& touch ${marker}`,
    `touch ${marker} &`,
    `true\ntouch ${marker}`,
    `(touch ${marker})`,
    `( ( ( touch ${marker} ) ) )`,
    `{ touch ${marker}; }`,
    `echo $(touch ${marker})`,
    `echo \`touch ${marker}\``,
    `cat <(touch ${marker})`,
    `bash <<EOF\ntouch ${marker}\nEOF`,
    `cat <<EOF\n$(touch ${marker})\nEOF`,
    `bash -c "touch ${marker}"`,
    `sh -c "bash -c 'zsh -c \\"touch ${marker}\\"'"`,
    `eval "touch ${marker}"`,
    `echo ${marker} | xargs touch`,
    `find ${outside} -maxdepth 0 -exec touch ${marker} \\;`,
    `env touch ${marker}`,
    `env -i PATH=/usr/bin touch ${marker}`,
    `FOO=1 touch ${marker}`,
    `command touch ${marker}`,
    `builtin exec touch ${marker}`,
    `exec touch ${marker}`,
    `nice -n 5 touch ${marker}`,
    `nohup touch ${marker}`,
    `timeout 10 touch ${marker}`,
    `stdbuf -o0 touch ${marker}`,
    `time touch ${marker}`,
    `f() { touch ${marker}; }; f`,
    `function g { touch ${marker}; }; g`,
    `shopt -s expand_aliases; alias t='touch ${marker}'; t`,
    `/usr/bin/touch ${marker}`,
    `../../usr/bin/touch ${marker}`,
    `'t'ouch ${marker}`,
    `t\\ouch ${marker}`,
    `"touch" ${marker}`,
    `$'\\x74ouch' ${marker}`,
    `if true; then touch ${marker}; fi`,
    `for i in 1; do touch ${marker}; done`,
    `case a in a) touch ${marker};; esac`,
    `files=(a $(touch ${marker})); echo "\${files[@]}"`,
    `[[ -n x ]] && touch ${marker}`,
  ];
  for (const command of bypasses) {
    it(`denies ${JSON.stringify(command)}`, async () => {
      const run = tool.execute("t", { command, workdir: outside });
      await expect(run).rejects.toThrow(
        /exec denied by rule Bash\(touch:\*\) from .*settings\.json:5 matched "/,
      );
      expect(existsSync(marker)).toBe(false);
    });
  }

  it("names the Codex rule, its file:line and justification", async () => {
    await expect(tool.execute("t", { command: `cd ${outside} && chmod 777 settings.json` })).rejects.toThrow(
      /exec denied by rule prefix_rule\(\["chmod",\["\+x","777"\]\]\) from .*default\.rules:2 matched "chmod 777 settings\.json" — no permission changes/,
    );
  });

  it("a computed program name, eval of a computed string and interpreter code are asked, never run silently", async () => {
    for (const command of [
      `X=touch; $X ${marker}`,
      `eval "$(echo touch) ${marker}"`,
      `python3 -c 'open("${marker}", "w")'`,
      `echo touch ${marker} | sh`,
    ]) {
      await expect(tool.execute("t", { command })).rejects.toThrow(
        /needs approval but no approval handler.*approval required by/,
      );
      expect(existsSync(marker)).toBe(false);
    }
  });

  it("an ask rule goes to the approval handler, which sees the rule", async () => {
    const seen: string[] = [];
    const plugin = createRuntimePlugin({
      exec: {
        approval: async (request) => {
          seen.push(request.reason);
          return "deny";
        },
      },
    });
    plugins.push(plugin);
    const asked = plugin.tools
      .find((t) => t.names.includes("exec"))!
      .factory({
        workspaceDir,
        config: { runtime: policy },
      }) as ExecTool;
    await expect(asked.execute("t", { command: `mkdir ${marker}` })).rejects.toThrow(/Denied by user/);
    expect(seen[0]).toMatch(
      /approval required by rule Bash\(mkdir \*\) from .*settings\.json:7 matched "mkdir /,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("runs commands that only mention a denied word", async () => {
    writeFileSync(path.join(workspaceDir, "notes.txt"), 'say "rm -rf" and touch nothing\n');
    const echoed = await tool.execute("t", { command: 'echo "git push"; echo "touch x"' });
    expect(text(echoed)).toContain("git push\ntouch x");
    const grep = await tool.execute("t", { command: 'grep -r "rm -rf" .' });
    expect(text(grep)).toContain('notes.txt:say "rm -rf"');
    const arrays = await tool.execute("t", {
      command: `bash -c 'files=(one "two three"); echo "\${files[1]}" \${#files[@]}'`,
    });
    expect(text(arrays)).toContain("two three 2");
    const quoted = await tool.execute("t", {
      command: `printf '%s\\n' 'touch ${marker}' "$(echo chmod 777)"`,
    });
    expect(text(quoted)).toContain(`touch ${marker}\nchmod 777`);
    expect(existsSync(marker)).toBe(false);
  });

  it("allow rules carry allowlist mode: every program allowed by a rule runs as written", async () => {
    const strict = execTool({ ...policy, exec: { security: "allowlist", ask: "off" } });
    const ok = await strict.execute("t", { command: "echo one && echo $(echo two)" });
    expect(text(ok)).toContain("one\ntwo");
    await expect(strict.execute("t", { command: `ls ${outside}` })).rejects.toThrow(
      /exec denied: allowlist miss/,
    );
  });

  it("a 100 KB command and 200 nested subshells are decided", () => {
    const loaded = ExecPolicy.load(policy.execPolicy as never, workspaceDir);
    const big = `${"echo hi; ".repeat(11_500)}touch ${marker}`;
    expect(big.length).toBeGreaterThan(100_000);
    expect(loaded.evaluate(big).decision).toBe("deny");
    expect(loaded.evaluate(`${"(".repeat(200)}touch x${")".repeat(200)}`).decision).toBe("deny");
    expect(loaded.evaluate(`${"$(".repeat(200)}touch x${")".repeat(200)}`).decision).toBe("deny");
    // deeper than the reader goes: not readable, so asked
    expect(loaded.evaluate(`${"(".repeat(1000)}echo x${")".repeat(1000)}`).decision).toBe("ask");
  });
});

describe("rule files", () => {
  const factory = () => {
    const plugin = createRuntimePlugin();
    plugins.push(plugin);
    return plugin.tools.find((t) => t.names.includes("exec"))!.factory;
  };

  it("a Codex match example that does not match fails the start, naming it", () => {
    const bad = path.join(outside, "bad.rules");
    writeFileSync(
      bad,
      `prefix_rule(pattern=["git", "push"], decision="prompt",\n  match=["git pull origin"])\n`,
    );
    expect(() => factory()({ workspaceDir, config: { runtime: { execPolicy: { codex: [bad] } } } })).toThrow(
      /execPolicy: .*bad\.rules:1: match example "git pull origin" does not match prefix_rule\(\["git","push"\]\)/,
    );
    writeFileSync(bad, `prefix_rule(pattern=["git"], not_match=[["git", "status"]])\n`);
    expect(() => factory()({ workspaceDir, config: { runtime: { execPolicy: { codex: [bad] } } } })).toThrow(
      /not_match example \["git","status"\] matches/,
    );
  });

  it("a missing file or an unknown decision is one line naming it", () => {
    expect(() =>
      factory()({
        workspaceDir,
        config: { runtime: { execPolicy: { claude: [path.join(outside, "nope.json")] } } },
      }),
    ).toThrow(/execPolicy: cannot read .*nope\.json: ENOENT/);
    const bad = path.join(outside, "bad2.rules");
    writeFileSync(bad, `prefix_rule(pattern=["ls"], decision="maybe")\n`);
    expect(() => factory()({ workspaceDir, config: { runtime: { execPolicy: { codex: [bad] } } } })).toThrow(
      /bad2\.rules:1: decision must be "allow", "prompt" or "forbidden"/,
    );
    expect(readdirSync(outside)).not.toContain("marker");
  });

  it("host_executable pins: an allow rule covers only the pinned path", () => {
    const pinned = path.join(outside, "pins.rules");
    writeFileSync(
      pinned,
      `host_executable(name="git", paths=["/usr/bin/git"])\nprefix_rule(pattern=["git", "status"])\n`,
    );
    const loaded = ExecPolicy.load({ codex: [pinned] }, workspaceDir);
    expect(loaded.evaluate("/usr/bin/git status").decision).toBe("allow");
    expect(loaded.evaluate("git status").decision).toBe("allow");
    expect(loaded.evaluate("/tmp/evil/git status").decision).toBe("none");
    expect(loaded.evaluate("./git status").decision).toBe("none");
  });
});
