import { basename, type Invocation } from "./command-unwrap.js";

export type RuleDecision = "deny" | "ask" | "allow";

/** Deny beats ask beats allow. */
export const STRICTNESS: Record<RuleDecision, number> = { allow: 1, ask: 2, deny: 3 };

/** One rule from the config, a Claude Code settings file or a Codex rules file. */
export interface ExecRule {
  decision: RuleDecision;
  /** Argument prefix: each position lists its alternatives; position 0 is the program. */
  prefix?: string[][];
  /** Claude Code's Bash(…) text: exact, `:*` prefix at a word boundary, `*` any characters. */
  text?: string;
  /** The rule as written, for messages. */
  display: string;
  /** Where it came from: `file:line` or the config key. */
  source: string;
  justification?: string;
}

export type RuleMatch = "yes" | "maybe" | "no";

/** Codex's host_executable: a name whose absolute paths are only these. */
export type Pins = ReadonlyMap<string, readonly string[]>;

/**
 * The program's name for matching. Deny and ask rules see the basename of any path (a path
 * cannot hide a program from them); an allow rule sees a path only where it is pinned, or any
 * absolute path of an unpinned name, never a relative one (a file the model may have written).
 */
function programName(word: string, decision: RuleDecision, pins: Pins): string | undefined {
  if (!word.includes("/")) return word;
  const base = basename(word);
  if (decision !== "allow") return base;
  if (!word.startsWith("/")) return undefined;
  const pinned = pins.get(base);
  return !pinned || pinned.includes(word) ? base : undefined;
}

/** Whether `rule` covers `inv`: yes, no, or maybe (a dynamic word or appended arguments could make it). */
export function matchRule(rule: ExecRule, inv: Invocation, pins: Pins): RuleMatch {
  const argv = inv.argv;
  if (!argv.length) return "no";
  // a computed program name is not matched by any rule: the unresolved command goes to ask
  if (argv[0]!.dynamic) return "no";
  const name = programName(argv[0]!.text, rule.decision, pins);
  if (name === undefined) return "no";
  if (rule.prefix) return matchPrefix(rule.prefix, name, inv, rule.decision);
  return matchText(rule.text ?? "", name, inv, rule.decision);
}

function matchPrefix(prefix: string[][], name: string, inv: Invocation, decision: RuleDecision): RuleMatch {
  let maybe = false;
  for (let k = 0; k < prefix.length; k++) {
    const alternatives = prefix[k]!;
    if (k === 0) {
      if (!alternatives.some((a) => a === name || (a.includes("/") && a === inv.argv[0]!.text))) return "no";
      continue;
    }
    const word = inv.argv[k];
    if (!word) {
      if (inv.openEnded) {
        maybe = true;
        break;
      }
      return "no";
    }
    if (word.dynamic) {
      maybe = true;
      continue;
    }
    if (!alternatives.includes(word.text)) return "no";
  }
  if (!maybe) return "yes";
  return decision === "allow" ? "no" : "maybe";
}

/** `*` matches any run of characters (linear-time two-pointer match, no regular expression). */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      mark = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

function matchText(text: string, name: string, inv: Invocation, decision: RuleDecision): RuleMatch {
  const words = [name, ...inv.argv.slice(1).map((w) => w.text)];
  const line = words.join(" ");
  let pattern = text.trim();
  // `git push:*` is `git push` alone or followed by a space and anything
  const prefix = pattern.endsWith(":*");
  if (prefix) pattern = pattern.slice(0, -2).trimEnd();
  const matches = (candidate: string) =>
    prefix
      ? wildcardMatch(pattern, candidate) || wildcardMatch(`${pattern} *`, candidate)
      : wildcardMatch(pattern, candidate);
  const dynamicAt = inv.argv.findIndex((w) => w.dynamic);
  if (dynamicAt === -1 && !inv.openEnded) return matches(line) ? "yes" : "no";
  if (decision === "allow") {
    // words known before any unknown one already fall under a prefix rule: whatever follows is allowed
    if (!prefix) return "no";
    return matches(dynamicAt === -1 ? line : words.slice(0, dynamicAt).join(" ")) ? "yes" : "no";
  }
  if (dynamicAt === -1 && matches(line)) return "yes";
  // could it match once the unknown part is filled in? compare the literal parts before it
  const known = (dynamicAt === -1 ? words : words.slice(0, dynamicAt)).join(" ");
  const literal = pattern.split("*")[0]!;
  const comparable = Math.min(known.length, literal.length);
  return known.slice(0, comparable) === literal.slice(0, comparable) ? "maybe" : "no";
}
