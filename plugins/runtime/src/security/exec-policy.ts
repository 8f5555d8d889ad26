import { homedir } from "node:os";
import path from "node:path";
import { type Invocation, invocationsOf } from "./command-unwrap.js";
import { type ExecRule, matchRule, type Pins, type RuleDecision, STRICTNESS } from "./exec-rules.js";
import { type ConfigRule, configRules, loadClaudeRules, loadCodexRules } from "./rule-files.js";
import { parseShell } from "./shell-grammar.js";

export interface ExecPolicyConfig {
  rules?: ConfigRule[];
  /** Claude Code settings.json files (their permissions' Bash rules). */
  claude?: string[];
  /** Codex .rules files. */
  codex?: string[];
}

export interface SegmentVerdict {
  /** The program and its arguments as the policy saw them. */
  argv: string[];
  via: string[];
  /** The simple command it came from, as written. */
  source: string;
  decision: RuleDecision | "none";
  rule?: { display: string; source: string; justification?: string };
  /** The rule could apply once an unknown part is known (the strictest is taken). */
  maybe?: boolean;
  unresolved?: string;
  /** A function or alias from the same line (its body is judged on its own). */
  defined?: boolean;
}

export interface PolicyVerdict {
  /** deny, ask, allow (every command allowed by a rule) or none (no rule decides). */
  decision: RuleDecision | "none";
  /** The segment that decided (for deny and ask). */
  deciding?: SegmentVerdict;
  segments: SegmentVerdict[];
}

const MAX_SEGMENTS_REPORTED = 200;

const expandHome = (file: string, baseDir: string) =>
  file === "~" || file.startsWith("~/") ? path.join(homedir(), file.slice(1)) : path.resolve(baseDir, file);

/**
 * The exec policy: rules from the config, Claude Code settings and Codex rule files, judged
 * against every program a command line would start. Deny beats ask beats allow; what cannot
 * be known before it runs is decided by the strictest rule that could apply, or by ask.
 */
export class ExecPolicy {
  private constructor(
    readonly rules: readonly ExecRule[],
    private readonly pins: Pins,
  ) {}

  /** Loads every rule file now (a bad file or a failing example throws RuleFileError). */
  static load(config: ExecPolicyConfig | undefined, baseDir: string): ExecPolicy {
    const rules: ExecRule[] = configRules(config?.rules ?? []);
    const pins = new Map<string, string[]>();
    for (const file of config?.claude ?? []) rules.push(...loadClaudeRules(expandHome(file, baseDir)));
    for (const file of config?.codex ?? []) {
      const loaded = loadCodexRules(expandHome(file, baseDir));
      rules.push(...loaded.rules);
      for (const [name, paths] of loaded.pins) pins.set(name, [...(pins.get(name) ?? []), ...paths]);
    }
    return new ExecPolicy(rules, pins);
  }

  static fromRules(rules: readonly ExecRule[], pins: Pins = new Map()): ExecPolicy {
    return new ExecPolicy(rules, pins);
  }

  get size(): number {
    return this.rules.length;
  }

  /** Whether any rule could stop a command (unknown parts then need a decision). */
  private get restricts(): boolean {
    return this.rules.some((r) => r.decision !== "allow");
  }

  evaluate(line: string): PolicyVerdict {
    const parsed = parseShell(line);
    const ctx = { defined: parsed.functions, depth: 0, problems: [...parsed.problems] };
    const invocations = invocationsOf(parsed.commands, ctx);
    const segments = invocations.map((inv) => this.judge(inv));
    if (ctx.problems.length) {
      segments.push({
        argv: [],
        via: [],
        source: line.slice(0, 200),
        decision: this.restricts ? "ask" : "none",
        unresolved: `the command could not be read completely (${[...new Set(ctx.problems)].slice(0, 3).join("; ")})`,
      });
    }
    let deciding: SegmentVerdict | undefined;
    for (const s of segments) {
      if (s.decision === "allow" || s.decision === "none") continue;
      if (!deciding || STRICTNESS[s.decision] > STRICTNESS[deciding.decision as RuleDecision]) deciding = s;
    }
    const judged = segments.filter((s) => !s.defined);
    const decision: PolicyVerdict["decision"] = deciding
      ? (deciding.decision as RuleDecision)
      : judged.length && judged.every((s) => s.decision === "allow")
        ? "allow"
        : "none";
    return {
      decision,
      ...(deciding ? { deciding } : {}),
      segments: segments.slice(0, MAX_SEGMENTS_REPORTED),
    };
  }

  private judge(inv: Invocation): SegmentVerdict {
    const verdict: SegmentVerdict = {
      argv: inv.argv.map((w) => w.text),
      via: inv.via,
      source: inv.source,
      decision: "none",
      ...(inv.unresolved ? { unresolved: inv.unresolved } : {}),
      ...(inv.defined ? { defined: true } : {}),
    };
    let best: { rule: ExecRule; maybe: boolean } | undefined;
    for (const rule of this.rules) {
      const m = matchRule(rule, inv, this.pins);
      if (m === "no") continue;
      const stricter = !best || STRICTNESS[rule.decision] > STRICTNESS[best.rule.decision];
      // a certain match beats a possible one of the same strength
      if (
        stricter ||
        (STRICTNESS[rule.decision] === STRICTNESS[best!.rule.decision] && best!.maybe && m === "yes")
      )
        best = { rule, maybe: m === "maybe" };
    }
    if (best) {
      verdict.decision = best.rule.decision;
      verdict.rule = {
        display: best.rule.display,
        source: best.rule.source,
        ...(best.rule.justification ? { justification: best.rule.justification } : {}),
      };
      if (best.maybe) verdict.maybe = true;
    }
    // what cannot be known is never allowed on a rule's strength: at least ask
    if (inv.unresolved && STRICTNESS[verdict.decision as RuleDecision] !== STRICTNESS.deny) {
      if (this.restricts || verdict.decision === "allow") verdict.decision = "ask";
    }
    return verdict;
  }
}

/** One line for a deny or ask: the rule, where it came from and the command that matched. */
export function describeVerdict(verdict: PolicyVerdict): string {
  const s = verdict.deciding;
  if (!s) return verdict.decision;
  const command = s.argv.join(" ").slice(0, 200) || s.source;
  const via = s.via.length ? ` (inside ${s.via.join(" → ")})` : "";
  if (!s.rule) return `${s.unresolved ?? "not decidable"}: "${command}"${via}`;
  const why = s.maybe ? " could match" : " matched";
  const unresolved = s.unresolved ? `; ${s.unresolved}` : "";
  const justification = s.rule.justification ? ` — ${s.rule.justification}` : "";
  return `rule ${s.rule.display} from ${s.rule.source}${why} "${command}"${via}${unresolved}${justification}`;
}
