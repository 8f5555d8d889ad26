import path from "node:path";
import { parseArgs } from "node:util";
import { isConfigError } from "@clawtools/core";
import { describeVerdict, ExecPolicy, parseRuntimeConfig, RuleFileError } from "@clawtools/runtime";
import { readConfigFile } from "../config.js";
import { UsageError } from "../usage-error.js";

export const EXEC_POLICY_HELP = `Usage: clawtools exec-policy check [--config <file>] [--workspace <dir>] -- <command…>

Prints, as JSON, how the exec policy (config runtime.execPolicy: rules, Claude Code settings
files, Codex .rules files) decides a command: the decision (deny, ask, allow, or none when no
rule decides), the rule and where it came from, and every simple command as parsed. Relative
rule-file paths are read from the workspace (default: the current directory), as serve does.`;

/** `clawtools exec-policy check -- <command…>`. */
export async function execPolicyCommand(argv: string[], out: (line: string) => void): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: "string" },
        workspace: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) {
    out(EXEC_POLICY_HELP);
    return 0;
  }
  const [sub, ...words] = parsed.positionals;
  if (sub !== "check")
    throw new UsageError(`expected "exec-policy check -- <command>", got ${JSON.stringify(sub ?? "")}`);
  const command = words.join(" ");
  if (!command.trim()) throw new UsageError("give the command to check after --");
  let policy: ExecPolicy;
  try {
    const runtime = parseRuntimeConfig(
      readConfigFile(parsed.values.config as string | undefined).raw.runtime ?? {},
    );
    policy = ExecPolicy.load(runtime.execPolicy, path.resolve((parsed.values.workspace as string) ?? "."));
  } catch (error) {
    if (error instanceof RuleFileError) throw new UsageError(`execPolicy: ${error.message}`);
    if (isConfigError(error)) throw new UsageError(error.message.replace(/\n\s*/g, " "));
    throw error;
  }
  const verdict = policy.evaluate(command);
  const rule = verdict.deciding?.rule;
  out(
    JSON.stringify(
      {
        decision: verdict.decision,
        ...(rule ? { rule: rule.display, source: rule.source } : {}),
        ...(verdict.deciding ? { reason: describeVerdict(verdict) } : {}),
        rules: policy.size,
        commands: verdict.segments,
      },
      null,
      2,
    ),
  );
  return 0;
}
