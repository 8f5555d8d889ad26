import { ClawtoolsError } from "@clawtools/core";
import { readFileSync } from "node:fs";
import type { Invocation } from "./command-unwrap.js";
import { type ExecRule, matchRule, type RuleDecision } from "./exec-rules.js";
import { parseShell } from "./shell-grammar.js";
import { type StarValue, starlarkCalls } from "./starlark.js";

/** A rule file that cannot be used: the start fails with this one line. */
export const RULE_FILE_ERROR = Symbol.for("clawtools.error.RuleFileError");

/** A rule file that cannot be read or parsed, or whose examples fail: the start fails naming it. */
export class RuleFileError extends ClawtoolsError {
  static override readonly marker: symbol = RULE_FILE_ERROR;
  readonly [RULE_FILE_ERROR] = true;
  override get code(): string {
    return "CLAWTOOLS_RULE_FILE";
  }
  override name = "RuleFileError";
}

/** Whether `error` is a RuleFileError from any copy of this package (its brand, not `instanceof`). */
export function isRuleFileError(error: unknown): error is RuleFileError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as Record<symbol, unknown>)[RULE_FILE_ERROR] === true
  );
}

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new RuleFileError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

const lineOf = (text: string, index: number) => (index < 0 ? 1 : text.slice(0, index).split("\n").length);

/**
 * Claude Code's settings.json: `permissions.allow / ask / deny` entries of the form `Bash(…)`
 * (or `Bash` alone: every command). Other tools' entries are not about shell commands.
 */
export function loadClaudeRules(file: string): ExecRule[] {
  const text = read(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RuleFileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const permissions = (json as { permissions?: Record<string, unknown> })?.permissions ?? {};
  const rules: ExecRule[] = [];
  let searchFrom = 0;
  for (const [key, decision] of [
    ["deny", "deny"],
    ["ask", "ask"],
    ["allow", "allow"],
  ] as const) {
    const list = permissions[key];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new RuleFileError(`${file}: permissions.${key} must be an array of strings`);
    for (const entry of list) {
      if (typeof entry !== "string")
        throw new RuleFileError(`${file}: permissions.${key} holds a non-string entry`);
      const m = /^Bash(?:\((.*)\))?$/s.exec(entry.trim());
      if (!m) continue;
      const at = text.indexOf(JSON.stringify(entry), searchFrom);
      rules.push({
        decision,
        text: m[1] === undefined || m[1].trim() === "" ? "*" : m[1],
        display: entry,
        source: `${file}:${lineOf(text, at)}`,
      });
    }
    searchFrom = 0;
  }
  return rules;
}

const CODEX_DECISIONS: Record<string, RuleDecision> = { allow: "allow", prompt: "ask", forbidden: "deny" };

const strings = (v: StarValue | undefined): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;

function exampleInvocation(example: StarValue): Invocation | undefined {
  const words =
    typeof example === "string"
      ? parseShell(example).commands[0]?.words
      : strings(example)?.map((text) => ({ text, dynamic: false }));
  return words?.length ? { argv: words, via: [], source: String(example) } : undefined;
}

/**
 * Codex's Starlark rules: `prefix_rule(pattern, decision, justification, match, not_match)` and
 * `host_executable(name, paths)`. Every `match` example must match its rule and no `not_match`
 * one may, checked now: a failing example names itself and the rule's line.
 */
export function loadCodexRules(file: string): { rules: ExecRule[]; pins: Map<string, string[]> } {
  const text = read(file);
  const rules: ExecRule[] = [];
  const pins = new Map<string, string[]>();
  let calls: ReturnType<typeof starlarkCalls>;
  try {
    calls = starlarkCalls(text);
  } catch (error) {
    throw new RuleFileError(`${file}: ${(error as Error).message}`);
  }
  const checks: { rule: ExecRule; match: StarValue[]; notMatch: StarValue[] }[] = [];
  for (const call of calls) {
    const where = `${file}:${call.line}`;
    if (call.name === "host_executable") {
      const name = call.kwargs.name ?? call.args[0];
      const paths = strings(call.kwargs.paths ?? call.args[1]);
      if (typeof name !== "string" || !paths)
        throw new RuleFileError(`${where}: host_executable needs name="…" and paths=[…]`);
      pins.set(name, [...(pins.get(name) ?? []), ...paths]);
      continue;
    }
    if (call.name !== "prefix_rule")
      throw new RuleFileError(
        `${where}: unknown function ${call.name} (this reader knows prefix_rule and host_executable)`,
      );
    const pattern = call.kwargs.pattern ?? call.args[0];
    if (!Array.isArray(pattern) || pattern.length === 0)
      throw new RuleFileError(`${where}: prefix_rule needs a non-empty pattern list`);
    const prefix = pattern.map((el) => (typeof el === "string" ? [el] : strings(el)));
    if (prefix.some((alts) => !alts || alts.length === 0))
      throw new RuleFileError(`${where}: each pattern element must be a string or a list of strings`);
    const decisionName = call.kwargs.decision ?? "allow";
    const decision = typeof decisionName === "string" ? CODEX_DECISIONS[decisionName] : undefined;
    if (!decision)
      throw new RuleFileError(
        `${where}: decision must be "allow", "prompt" or "forbidden", not ${JSON.stringify(decisionName)}`,
      );
    const justification = call.kwargs.justification;
    const rule: ExecRule = {
      decision,
      prefix: prefix as string[][],
      display: `prefix_rule(${JSON.stringify(pattern)})`,
      source: where,
      ...(typeof justification === "string" ? { justification } : {}),
    };
    rules.push(rule);
    const list = (v: StarValue | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
    checks.push({ rule, match: list(call.kwargs.match), notMatch: list(call.kwargs.not_match) });
  }
  for (const { rule, match, notMatch } of checks) {
    for (const example of match) {
      const inv = exampleInvocation(example);
      if (!inv || matchRule(rule, inv, pins) !== "yes")
        throw new RuleFileError(
          `${rule.source}: match example ${JSON.stringify(example)} does not match ${rule.display}`,
        );
    }
    for (const example of notMatch) {
      const inv = exampleInvocation(example);
      if (inv && matchRule(rule, inv, pins) === "yes")
        throw new RuleFileError(
          `${rule.source}: not_match example ${JSON.stringify(example)} matches ${rule.display}`,
        );
    }
  }
  return { rules, pins };
}

export interface ConfigRule {
  decision: RuleDecision;
  command: (string | string[])[];
  justification?: string;
}

/** `runtime.execPolicy.rules`: argument prefixes, as Codex's patterns. */
export function configRules(list: readonly ConfigRule[]): ExecRule[] {
  return list.map((rule, index) => ({
    decision: rule.decision,
    prefix: rule.command.map((el) => (typeof el === "string" ? [el] : el)),
    display: JSON.stringify(rule.command),
    source: `runtime.execPolicy.rules[${index}]`,
    ...(rule.justification ? { justification: rule.justification } : {}),
  }));
}
