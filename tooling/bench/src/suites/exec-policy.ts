/**
 * The exec policy's decision time beside reading the command with its shell grammar alone (the
 * floor: one pass over a plain command, what allowlist mode also reads), on an everyday command, a bypass-shaped one, 100 KB and 200 nested
 * subshells; and what the bubblewrap sandbox adds to starting a command, beside exec unsandboxed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createExecTool,
  ExecPolicy,
  ExecSandbox,
  findBwrap,
  parseShell,
  ProcessRegistry,
} from "@clawtools/runtime";
import { type BenchRow, type BenchSuite, loadAtStart, timeInTurns, timePerCallMicros } from "../harness.js";

const RULES = [
  ...["push", "reset", "clean"].map((sub) => ({ decision: "deny" as const, command: ["git", sub] })),
  { decision: "deny" as const, command: ["rm", ["-rf", "-fr"]] },
  { decision: "ask" as const, command: ["npm", "publish"] },
  ...[
    "ls",
    "cat",
    "grep",
    "echo",
    "git",
    "npm",
    "node",
    "pnpm",
    "sed",
    "awk",
    "find",
    "wc",
    "head",
    "tail",
    "sort",
  ].map((name) => ({ decision: "allow" as const, command: [name] })),
];
const PLAIN = "git status --short && npm test -- --run | tee out.log";
const BYPASS = `cd repo && bash -c "eval 'g\\"i\\"t push'" || echo $(timeout 5 env -i git reset --hard) | xargs rm -rf`;

export default {
  name: "exec-policy",
  async run() {
    const load = loadAtStart();
    const rows: BenchRow[] = [];
    const policy = ExecPolicy.load({ rules: RULES }, process.cwd());
    const strict = await timePerCallMicros(() => parseShell(PLAIN), 20_000);
    rows.push({ name: "shell grammar read, everyday command (floor)", value: strict, unit: "µs" });
    const plain = await timePerCallMicros(() => policy.evaluate(PLAIN), 20_000);
    rows.push({
      name: `exec policy decision, everyday command, ${RULES.length} rules`,
      value: plain,
      unit: "µs",
      baseline: "shell grammar read, everyday command (floor)",
      target: "< 1000 µs",
      met: plain < 1000,
    });
    const bypass = await timePerCallMicros(() => policy.evaluate(BYPASS), 10_000);
    rows.push({
      name: "exec policy decision, bypass-shaped command (bash -c, eval, $( ), env, timeout, xargs)",
      value: bypass,
      unit: "µs",
      target: "< 1000 µs",
      met: bypass < 1000,
    });
    const big = `${"echo hi; ".repeat(11_500)}git push`;
    const bigMs = (await timePerCallMicros(() => policy.evaluate(big), 5)) / 1000;
    rows.push({
      name: "exec policy decision, 100 KB command",
      value: bigMs,
      unit: "ms",
      target: "< 500 ms",
      met: bigMs < 500,
    });
    const nested = `${"(".repeat(200)}git push${")".repeat(200)}`;
    const nestedMs = (await timePerCallMicros(() => policy.evaluate(nested), 50)) / 1000;
    rows.push({
      name: "exec policy decision, 200 nested subshells",
      value: nestedMs,
      unit: "ms",
      target: "< 50 ms",
      met: nestedMs < 50,
    });

    const notes: string[] = [];
    const workspaceDir = mkdtempSync(path.join(tmpdir(), "bench-sandbox-"));
    const registry = new ProcessRegistry();
    const sandbox = new ExecSandbox({ mode: "auto", warn: (line) => notes.push(line) });
    try {
      if (sandbox.active && findBwrap()) {
        const bare = createExecTool({ workspaceDir }, { registry });
        const boxed = createExecTool({ workspaceDir }, { registry, sandbox });
        const offline = new ExecSandbox({ mode: "bwrap", network: "off" });
        const boxedOff = createExecTool({ workspaceDir }, { registry, sandbox: offline });
        const times = await timeInTurns(
          {
            bare: () => bare.execute("b", { command: "true" }),
            boxed: () => boxed.execute("s", { command: "true" }),
            boxedOff: () => boxedOff.execute("o", { command: "true" }),
          },
          30,
        );
        rows.push({ name: "exec `true` unsandboxed (baseline)", value: times.bare, unit: "ms" });
        rows.push({
          name: "exec `true` in bubblewrap with the egress-proxy bridge",
          value: times.boxed,
          unit: "ms",
          baseline: "exec `true` unsandboxed (baseline)",
          target: "< 150 ms added",
          met: times.boxed - times.bare < 150,
        });
        rows.push({
          name: "exec `true` in bubblewrap, sandboxNetwork off (no bridge)",
          value: times.boxedOff,
          unit: "ms",
          baseline: "exec `true` unsandboxed (baseline)",
          target: "< 150 ms added",
          met: times.boxedOff - times.bare < 150,
        });
      } else notes.push(`bubblewrap does not run here: ${sandbox.status}; no sandbox rows`);
    } finally {
      await sandbox.dispose();
      registry.killAll();
      rmSync(workspaceDir, { recursive: true, force: true });
    }
    notes.push(
      "The decision reads the whole line with the shell grammar, opens wrappers and nested command lines, and matches every rule; the floor is the strict reader allowlist mode used alone. The sandbox's cost is bubblewrap's namespaces plus a Node bridge that carries proxy traffic out.",
    );
    return { title: "Exec policy: decision time and sandbox start-up", rows, notes, loadAtStart: load };
  },
} satisfies BenchSuite;
