import { type ParsedCommand, parseShell, type ShellParse } from "./shell-grammar.js";

// Allowlist mode reads a command with the rules' shell grammar (shell-grammar.ts) and accepts
// only what it can rebuild exactly: simple commands joined by | && || ; and newlines, every
// word known before it runs. Anything more (an expansion, a glob, a subshell, a keyword, a
// here-document, a background job) refuses the whole line, naming the first such thing.

export type RedirectOp = "<" | ">" | ">>" | ">|" | "<>" | ">&" | "<&";

export interface Redirect {
  fd: number;
  op: RedirectOp;
  /** The file (or, for `>&` / `<&`, the file descriptor or `-`). */
  target: string;
}

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  assignments: string[];
  /** The words after quote removal; argv[0] is the command name. */
  argv: string[];
  redirects: Redirect[];
  /** The command as the grammar read it (for the wrappers and command lines inside it). */
  parsed: ParsedCommand;
}

export type Connector = "|" | "&&" | "||" | ";";

export type PlainRead =
  | { ok: true; commands: SimpleCommand[]; connectors: Connector[]; parse: ShellParse }
  | { ok: false; reason: string };

const REDIRECT_OPS = new Set<string>(["<", ">", ">>", ">|", "<>", ">&", "<&"]);
const REFUSED_OPS: Record<string, string> = {
  "<<": "heredoc",
  "<<-": "heredoc",
  "<<<": "here-string",
  "&>": "&> redirection",
  "&>>": "&> redirection",
};

class Refused extends Error {}
const refuse = (reason: string): never => {
  throw new Refused(reason);
};

/** The line as plain simple commands, or the first reason it is more than that. */
export function readPlain(line: string): PlainRead {
  try {
    return readOrRefuse(line);
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}

function readOrRefuse(line: string): PlainRead {
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(line)) refuse("control character");
  const parse = parseShell(line);
  if (parse.problems.length) refuse(parse.problems[0]!);
  const commands = parse.commands.map(simple);
  if (parse.constructs.length) refuse(parse.constructs[0]!);
  if (commands.length === 0) refuse("empty command");
  const last = commands.at(-1)!.parsed.separator;
  if (last === "|" || last === "&&" || last === "||") refuse("a connector with no command after it");
  const connectors = commands
    .slice(0, -1)
    .map((c) => (c.parsed.separator === "\n" || !c.parsed.separator ? ";" : c.parsed.separator) as Connector);
  return { ok: true, commands, connectors, parse };
}

/** One command of the grammar as a plain simple command, or the reason it is not one. */
function simple(parsed: ParsedCommand): SimpleCommand {
  for (const word of [...parsed.assignments, ...parsed.words]) if (word.strict) refuse(word.strict);
  const redirects: Redirect[] = [];
  for (const r of parsed.redirects) {
    const reason = REFUSED_OPS[r.op];
    if (reason) refuse(reason);
    if (!REDIRECT_OPS.has(r.op) || !r.target) refuse(`redirection ${r.op}`);
    if (r.target!.strict) refuse(r.target!.strict);
    const target = r.target!.text;
    if (target === "") refuse("redirection without a target");
    if ((r.op === ">&" || r.op === "<&") && !/^(\d+|-)$/.test(target))
      refuse(`redirection ${r.op} to a file`);
    redirects.push({ fd: r.fd ?? (r.op.startsWith("<") ? 0 : 1), op: r.op as RedirectOp, target });
  }
  if (parsed.words.length === 0) refuse("a command with no program (only assignments or redirections)");
  return {
    assignments: parsed.assignments.map((w) => w.text),
    argv: parsed.words.map((w) => w.text),
    redirects,
    parsed,
  };
}
