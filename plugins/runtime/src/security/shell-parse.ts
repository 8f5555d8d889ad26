/**
 * The strict shell reader behind allowlist mode. It understands a small, fully specified part
 * of POSIX sh: words (plain, '…', "…" without expansions, backslash escapes), the connectors
 * `|`, `&&`, `||`, `;` and newlines, comments, and redirections. Everything else (expansions,
 * substitutions, globs, line continuations, heredocs, subshells, groups, keywords, background
 * jobs, control characters) makes the analysis fail: a command the reader does not fully
 * understand is never allowed on its strength. One pass, linear in the input.
 */

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
}

export type Connector = "|" | "&&" | "||" | ";";

export type StrictAnalysis =
  | { ok: true; commands: SimpleCommand[]; connectors: Connector[] }
  | { ok: false; reason: string };

const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "in",
  "function",
  "select",
  "time",
  "{",
  "}",
  "[[",
  "]]",
  "!",
  "coproc",
]);

class Unanalysable extends Error {}
const fail = (reason: string): never => {
  throw new Unanalysable(reason);
};

const isDigits = (s: string) => /^\d+$/.test(s);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Parses `line` or says, in a few words, what it could not analyse. */
export function parseStrict(line: string): StrictAnalysis {
  try {
    return { ok: true, ...parse(line) };
  } catch (error) {
    if (error instanceof Unanalysable) return { ok: false, reason: error.message };
    throw error;
  }
}

function parse(line: string): { commands: SimpleCommand[]; connectors: Connector[] } {
  const commands: SimpleCommand[] = [];
  const connectors: Connector[] = [];
  let current: SimpleCommand = { assignments: [], argv: [], redirects: [] };
  let word = "";
  let started = false;
  let quoted = false;
  // where in the word the first quoted character went (an assignment's name must be unquoted)
  let quoteAt = -1;
  let pending: { fd: number; op: RedirectOp } | undefined;
  // after | && || a command must follow (newlines may come first)
  let needCommand = false;

  const endWord = () => {
    if (!started) return;
    if (pending) {
      if ((pending.op === ">&" || pending.op === "<&") && (quoted || !(isDigits(word) || word === "-")))
        fail(`redirection ${pending.op} to a file`);
      current.redirects.push({ ...pending, target: word });
      pending = undefined;
    } else if (
      current.argv.length === 0 &&
      ASSIGNMENT.test(word) &&
      (quoteAt === -1 || word.indexOf("=") < quoteAt)
    ) {
      current.assignments.push(word);
    } else {
      if (current.argv.length === 0 && !quoted && RESERVED.has(word)) fail(`shell keyword ${word}`);
      current.argv.push(word);
    }
    word = "";
    started = false;
    quoted = false;
    quoteAt = -1;
  };
  const markQuoted = () => {
    if (!quoted) quoteAt = word.length;
    started = quoted = true;
  };
  const isEmpty = (c: SimpleCommand) => !c.argv.length && !c.assignments.length && !c.redirects.length;
  const endCommand = (connector: Connector | "\n") => {
    endWord();
    if (pending) fail("redirection without a target");
    if (isEmpty(current)) {
      // blank lines and a newline after | && || are fine; a connector with nothing before it is not
      if (connector === "\n") return;
      fail(`empty command before ${connector}`);
    }
    if (current.argv.length === 0) fail("a command with no program (only assignments or redirections)");
    commands.push(current);
    current = { assignments: [], argv: [], redirects: [] };
    connectors.push(connector === "\n" ? ";" : connector);
    needCommand = connector === "|" || connector === "&&" || connector === "||";
  };

  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    const next = line[i + 1];
    const code = c.charCodeAt(0);
    if ((code < 0x20 && c !== "\t" && c !== "\n") || code === 0x7f) fail("control character");
    switch (c) {
      case " ":
      case "\t":
        endWord();
        break;
      case "\n":
        endCommand("\n");
        break;
      case "#":
        if (started) word += c;
        else {
          const end = line.indexOf("\n", i);
          i = (end === -1 ? line.length : end) - 1;
        }
        break;
      case "'": {
        const close = line.indexOf("'", i + 1);
        if (close === -1) fail("unbalanced single quote");
        markQuoted();
        word += line.slice(i + 1, close);
        i = close;
        break;
      }
      case '"': {
        markQuoted();
        let j = i + 1;
        for (; j < line.length && line[j] !== '"'; j++) {
          const d = line[j]!;
          if (d === "\\") {
            const e = line[j + 1];
            if (e === "\n") fail("line continuation");
            if (e === '"' || e === "\\" || e === "$" || e === "`") {
              word += e;
              j++;
            } else word += d;
          } else if (d === "$" || d === "`") fail("expansion inside double quotes");
          else if (d.charCodeAt(0) < 0x20 && d !== "\t" && d !== "\n") fail("control character");
          else word += d;
        }
        if (j >= line.length) fail("unbalanced double quote");
        i = j;
        break;
      }
      case "\\":
        if (next === undefined) fail("trailing backslash");
        if (next === "\n") fail("line continuation");
        markQuoted();
        word += next;
        i++;
        break;
      case "|":
        if (next === "|") {
          endCommand("||");
          i++;
        } else if (next === "&") fail("|& pipe");
        else endCommand("|");
        break;
      case "&":
        if (next === "&") {
          endCommand("&&");
          i++;
        } else fail(next === ">" ? "&> redirection" : "background job (&)");
        break;
      case ";":
        if (next === ";") fail(";;");
        endCommand(";");
        break;
      case "<":
      case ">": {
        let fd = c === "<" ? 0 : 1;
        if (started && !quoted && isDigits(word)) {
          fd = Number(word);
          word = "";
          started = false;
        } else endWord();
        if (pending) fail("redirection without a target");
        let op: RedirectOp;
        if (next === "(") fail("process substitution");
        if (c === "<") {
          if (next === "<") fail(line[i + 2] === "<" ? "here-string" : "heredoc");
          op = next === "&" ? "<&" : next === ">" ? "<>" : "<";
        } else op = next === ">" ? ">>" : next === "&" ? ">&" : next === "|" ? ">|" : ">";
        i += op.length - 1;
        pending = { fd, op };
        break;
      }
      case "$":
        fail(next === "(" ? "command substitution" : "variable expansion ($)");
        break;
      case "`":
        fail("command substitution");
        break;
      case "(":
      case ")":
        fail("subshell or function definition");
        break;
      case "{":
      case "}":
        fail("brace group or expansion");
        break;
      case "*":
      case "?":
      case "[":
        fail(`glob pattern (${c})`);
        break;
      case "~":
        if (!started) fail("tilde expansion");
        word += c;
        break;
      case "!":
        if (!started) fail("negation (!)");
        word += c;
        break;
      default:
        word += c;
        started = true;
    }
  }
  endWord();
  if (pending) fail("redirection without a target");
  if (!isEmpty(current)) endCommand(";");
  else if (needCommand) fail("a connector with no command after it");
  if (commands.length === 0) fail("empty command");
  connectors.pop();
  return { commands, connectors };
}

/** A word quoted for sh so that it means exactly itself. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
