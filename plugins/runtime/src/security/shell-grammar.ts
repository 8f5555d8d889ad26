/**
 * The shell reader behind the exec policy. Unlike the strict reader of allowlist mode it accepts
 * the whole of bash's command grammar and finds every simple command that could run: lists and
 * pipelines, subshells, brace groups, compound commands, `$( )`, backticks, process substitution,
 * `${ … }` and `$(( … ))` with substitutions inside, here-documents (their bodies are kept, and
 * unquoted ones are searched for substitutions), and function definitions. A word remembers
 * whether any part of it is only known at run time (`dynamic`). One pass over the input;
 * nesting deeper than MAX_DEPTH stops the reading and is reported, never silently dropped.
 */

export interface ShellWord {
  /** The word after quote removal; dynamic parts are kept as written. */
  text: string;
  /** A part of it is only known when it runs ($x, $( ), globs, ~, brace expansion). */
  dynamic: boolean;
}

export interface ShellRedirect {
  op: string;
  target?: ShellWord;
  /** A here-document's or here-string's text, and whether the shell expands inside it. */
  input?: { text: string; literal: boolean };
}

export interface ParsedCommand {
  assignments: ShellWord[];
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** It reads the output of the command before it (`|`, `|&`). */
  piped: boolean;
  /** The command as written (trimmed, bounded). */
  source: string;
}

export interface ShellParse {
  commands: ParsedCommand[];
  /** Names of functions defined in the line. */
  functions: Set<string>;
  /** What could not be read (nesting too deep, an unterminated quote…); empty when complete. */
  problems: string[];
}

export const MAX_DEPTH = 400;
const SOURCE_CHARS = 300;

const KEYWORD_PREFIXES = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"]);
const KEYWORD_ENDS = new Set(["fi", "done", "esac", "}"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

class TooDeep extends Error {}

interface Frame {
  cmd: ParsedCommand;
  start: number;
}

/** Parses one command line (bounded nesting) into every simple command it could run. */
export function parseShell(line: string): ShellParse {
  const out: ShellParse = { commands: [], functions: new Set(), problems: [] };
  const reader = new Reader(line, out);
  try {
    reader.list(0, "");
    if (reader.pos < line.length) out.problems.push(`unexpected ${JSON.stringify(line[reader.pos])}`);
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    out.problems.push(`nesting deeper than ${MAX_DEPTH} levels`);
  }
  return out;
}

const emptyCommand = (): ParsedCommand => ({
  assignments: [],
  words: [],
  redirects: [],
  piped: false,
  source: "",
});

class Reader {
  pos = 0;
  private pendingHeredocs: { redirect: ShellRedirect; delimiter: string; strip: boolean; depth: number }[] =
    [];
  constructor(
    private readonly src: string,
    private readonly out: ShellParse,
  ) {}

  private problem(text: string) {
    if (this.out.problems.length < 20) this.out.problems.push(text);
  }

  /**
   * Reads a command list until `end` (")" for subshells and substitutions, "`" inside backticks,
   * "" for the end of input). Compound-command keywords are read as prefixes or separators: for
   * a policy only the simple commands inside them matter.
   */
  list(depth: number, end: string): void {
    if (depth > MAX_DEPTH) throw new TooDeep();
    const src = this.src;
    let frame: Frame = { cmd: emptyCommand(), start: this.pos };
    let piped = false;
    // inside `case … in`: words up to ")" are a pattern, not a command
    let casePattern = 0;
    let skipWords = false; // after `for NAME` / `select NAME`: words, not commands, until a separator
    let testClause = false; // inside [[ … ]]
    const finish = (nextPiped: boolean) => {
      const cmd = frame.cmd;
      if (cmd.words.length || cmd.assignments.length || cmd.redirects.length) {
        cmd.piped = piped;
        cmd.source = src.slice(frame.start, this.pos).trim().slice(0, SOURCE_CHARS);
        this.out.commands.push(cmd);
      }
      piped = nextPiped;
      skipWords = false;
      frame = { cmd: emptyCommand(), start: this.pos };
    };
    const atCommandStart = () =>
      !frame.cmd.words.length && !frame.cmd.assignments.length && !frame.cmd.redirects.length;

    while (this.pos < src.length) {
      const c = src[this.pos]!;
      const next = src[this.pos + 1];
      if (c === " " || c === "\t" || c === "\r") {
        this.pos++;
        continue;
      }
      if (c === "\\" && next === "\n") {
        this.pos += 2;
        continue;
      }
      if (c === "\n") {
        finish(false);
        this.pos++;
        this.readHeredocBodies();
        frame.start = this.pos;
        continue;
      }
      if (c === "#" && atCommandStart()) {
        const nl = src.indexOf("\n", this.pos);
        this.pos = nl === -1 ? src.length : nl;
        continue;
      }
      if (casePattern === 1 && (c === "(" || c === "|")) {
        this.pos++;
        continue;
      }
      if (c === ";" || c === "&" || c === "|") {
        // ;; ;& ;;& end a case branch: the next words are a pattern again
        if (c === ";" && (next === ";" || next === "&")) {
          finish(false);
          this.pos += next === ";" && src[this.pos + 2] === "&" ? 3 : 2;
          casePattern = casePattern > 0 ? casePattern : 1;
          continue;
        }
        if (c === "&" && next === ">") {
          this.redirect(frame.cmd, depth);
          continue;
        }
        const two = next === c || (c === "|" && next === "&");
        finish(c === "|" && !(next === "|"));
        this.pos += two ? 2 : 1;
        frame.start = this.pos;
        continue;
      }
      if (c === ")" && casePattern > 0 && atCommandStart()) {
        this.pos++;
        casePattern = 0;
        frame.start = this.pos;
        continue;
      }
      if (end && c === end) {
        finish(false);
        return;
      }
      // `((` is arithmetic to bash but two subshells to dash: read as subshells, the stricter
      if (c === "(" && atCommandStart()) {
        this.pos++;
        this.list(depth + 1, ")");
        this.pos++; // the ")"
        frame.start = this.pos;
        continue;
      }
      if (c === ")") {
        this.problem("unbalanced )");
        this.pos++;
        continue;
      }
      if (c === "(" && frame.cmd.words.length === 1 && !frame.cmd.assignments.length) {
        // name () compound-command: a function definition
        const close = /^\(\s*\)/.exec(src.slice(this.pos, this.pos + 64));
        if (close) {
          this.out.functions.add(frame.cmd.words[0]!.text);
          this.pos += close[0].length;
          frame = { cmd: emptyCommand(), start: this.pos };
          continue;
        }
      }
      if (c === "(") {
        this.problem("unexpected (");
        this.pos++;
        continue;
      }
      if (c === "<" || c === ">" || (/[0-9]/.test(c) && this.isFdRedirect())) {
        this.redirect(frame.cmd, depth);
        continue;
      }
      const wordStart = this.pos;
      const word = this.word(depth);
      if (casePattern > 0) {
        // `case WORD in`: the first pattern starts after "in"; `esac` closes it
        if (casePattern === 2) casePattern = word.text === "in" ? 1 : 2;
        else if (word.text === "esac" && atCommandStart()) casePattern = 0;
        frame.start = this.pos;
        continue;
      }
      if (testClause) {
        if (word.text === "]]") testClause = false;
        frame.start = this.pos;
        continue;
      }
      if (skipWords) continue;
      const plain = !word.dynamic && src.slice(wordStart, this.pos) === word.text;
      if (atCommandStart() && plain) {
        if (KEYWORD_PREFIXES.has(word.text) || KEYWORD_ENDS.has(word.text)) {
          frame.start = this.pos;
          continue;
        }
        if (word.text === "case") {
          this.skipBlanks();
          this.word(depth); // the subject
          casePattern = 2;
          frame.start = this.pos;
          continue;
        }
        if (word.text === "for" || word.text === "select") {
          skipWords = true;
          continue;
        }
        if (word.text === "[[") {
          testClause = true;
          continue;
        }
        if (word.text === "function") {
          this.skipBlanks();
          const name = this.word(depth);
          this.out.functions.add(name.text);
          const parens = /^\s*\(\s*\)/.exec(src.slice(this.pos, this.pos + 64));
          if (parens) this.pos += parens[0].length;
          frame.start = this.pos;
          continue;
        }
      }
      if (!frame.cmd.words.length && ASSIGNMENT.test(word.text)) {
        const eq = src.slice(wordStart, this.pos).indexOf("=");
        // the name part must be unquoted for an assignment
        if (
          eq > 0 &&
          NAME.test(
            src
              .slice(wordStart, wordStart + eq)
              .replace(/\[.*$/, "")
              .replace(/\+$/, ""),
          )
        ) {
          frame.cmd.assignments.push(word);
          continue;
        }
      }
      frame.cmd.words.push(word);
    }
    if (end) this.problem(`missing ${end}`);
    finish(false);
  }

  private skipBlanks(): void {
    while (this.src[this.pos] === " " || this.src[this.pos] === "\t") this.pos++;
  }

  private isFdRedirect(): boolean {
    const m = /^[0-9]+[<>]/.exec(this.src.slice(this.pos, this.pos + 12));
    if (!m) return false;
    // only at a word boundary: `a2>x` is a word followed by a redirection in no shell
    const before = this.src[this.pos - 1];
    return before === undefined || /[\s;&|()]/.test(before);
  }

  private redirect(cmd: ParsedCommand, depth: number): void {
    const m = /^([0-9]*)(<<<|<<-|<<|&>>|&>|>>|>\||>&|<&|<>|<\(|>\(|<|>)/.exec(
      this.src.slice(this.pos, this.pos + 16),
    )!;
    const op = m[2]!;
    if (op === "<(" || op === ">(") {
      // process substitution is a word, not a redirection
      this.pos += m[1]!.length;
      cmd.words.push(this.word(depth));
      return;
    }
    this.pos += m[0].length;
    while (this.src[this.pos] === " " || this.src[this.pos] === "\t") this.pos++;
    if (op === "<<" || op === "<<-") {
      const start = this.pos;
      const delimiter = this.word(depth);
      // a quoted delimiter keeps the body literal; otherwise the shell expands inside it
      const literal = /["'\\]/.test(this.src.slice(start, this.pos));
      const redirect: ShellRedirect = { op, input: { text: "", literal } };
      cmd.redirects.push(redirect);
      this.pendingHeredocs.push({ redirect, delimiter: delimiter.text, strip: op === "<<-", depth });
      return;
    }
    const target = this.word(depth);
    if (op === "<<<") cmd.redirects.push({ op, input: { text: target.text, literal: !target.dynamic } });
    else cmd.redirects.push({ op, target });
  }

  /** After a newline: the bodies of the here-documents opened on the line that ended. */
  private readHeredocBodies(): void {
    const pending = this.pendingHeredocs;
    this.pendingHeredocs = [];
    for (const doc of pending) {
      const lines: string[] = [];
      let closed = false;
      while (this.pos < this.src.length) {
        const nl = this.src.indexOf("\n", this.pos);
        const raw = this.src.slice(this.pos, nl === -1 ? this.src.length : nl);
        this.pos = nl === -1 ? this.src.length : nl + 1;
        const text = doc.strip ? raw.replace(/^\t+/, "") : raw;
        if (text === doc.delimiter) {
          closed = true;
          break;
        }
        lines.push(text);
      }
      if (!closed) this.problem(`here-document without its ${doc.delimiter} line`);
      const body = lines.join("\n");
      doc.redirect.input!.text = body;
      // an unquoted delimiter: the body is expanded, so substitutions in it run
      if (!doc.redirect.input!.literal) {
        const sub = new Reader(body, this.out);
        sub.expansionsOnly(doc.depth + 1);
      }
    }
  }

  /** Reads a text the way a here-document body is read: only its substitutions matter. */
  expansionsOnly(depth: number): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === "\\") this.pos += 2;
      else if (c === "$" || c === "`") this.dollarOrBacktick(depth);
      else this.pos++;
    }
  }

  /** Skips to `close` (a `)` or `}` family), reading substitutions and quotes on the way. */
  private balanced(depth: number, close: string): void {
    let level = 0;
    const open = close[0] === ")" ? "(" : "{";
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (level === 0 && this.src.startsWith(close, this.pos)) {
        this.pos += close.length;
        return;
      }
      if (c === "\\") this.pos += 2;
      else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        this.pos = end === -1 ? this.src.length : end + 1;
      } else if (c === '"') this.doubleQuoted(depth);
      else if (c === "$" || c === "`") this.dollarOrBacktick(depth);
      else {
        if (c === open) level++;
        else if (c === close[0]) level--;
        this.pos++;
      }
    }
    this.problem(`missing ${close}`);
  }

  /** At `$` or a backtick: reads an expansion, running the reader over any commands inside. */
  private dollarOrBacktick(depth: number): { text: string; dynamic: boolean } {
    const src = this.src;
    const start = this.pos;
    if (src[this.pos] === "`") {
      // the text between backticks, with \` \\ \$ unescaped, is a command line of its own
      let inner = "";
      let j = this.pos + 1;
      for (; j < src.length && src[j] !== "`"; j++) {
        if (src[j] === "\\" && (src[j + 1] === "`" || src[j + 1] === "\\" || src[j + 1] === "$")) {
          inner += src[j + 1];
          j++;
        } else inner += src[j];
      }
      if (j >= src.length) this.problem("missing closing backtick");
      this.pos = j + 1;
      this.nested(inner, depth);
      return { text: src.slice(start, this.pos), dynamic: true };
    }
    const next = src[this.pos + 1];
    if (next === "(" && src[this.pos + 2] === "(") {
      this.pos += 3;
      this.balanced(depth + 1, "))");
    } else if (next === "(") {
      this.pos += 2;
      this.list(depth + 1, ")");
      if (src[this.pos] === ")") this.pos++;
    } else if (next === "{") {
      this.pos += 2;
      this.balanced(depth + 1, "}");
    } else if (next === "'") {
      this.pos++;
      return { text: this.ansiC(), dynamic: false };
    } else if (next === '"') {
      this.pos++;
      return this.doubleQuoted(depth);
    } else if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
      this.pos += 2;
      if (/[A-Za-z_]/.test(next))
        while (this.pos < src.length && /[A-Za-z0-9_]/.test(src[this.pos]!)) this.pos++;
    } else {
      this.pos++;
      return { text: "$", dynamic: false };
    }
    return { text: src.slice(start, this.pos), dynamic: true };
  }

  private nested(text: string, depth: number): void {
    if (depth + 1 > MAX_DEPTH) throw new TooDeep();
    const sub = new Reader(text, this.out);
    sub.list(depth + 1, "");
  }

  /** $'…' with its escapes decoded. */
  private ansiC(): string {
    const src = this.src;
    let text = "";
    let j = this.pos + 1;
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    for (; j < src.length && src[j] !== "'"; j++) {
      if (src[j] !== "\\") {
        text += src[j];
        continue;
      }
      const e = src[j + 1] ?? "";
      const hex = /^(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3})/.exec(
        src.slice(j + 1, j + 10),
      );
      if (simple[e] !== undefined) {
        text += simple[e];
        j++;
      } else if (hex) {
        const v = hex[1]!;
        const code = /^[0-7]/.test(v) ? Number.parseInt(v, 8) : Number.parseInt(v.slice(1), 16);
        text += String.fromCodePoint(Math.min(code, 0x10ffff));
        j += v.length;
      } else {
        text += "\\";
      }
    }
    if (j >= src.length) this.problem("unbalanced $' quote");
    this.pos = j + 1;
    return text;
  }

  private doubleQuoted(depth: number): ShellWord {
    const src = this.src;
    let text = "";
    let dynamic = false;
    this.pos++;
    while (this.pos < src.length && src[this.pos] !== '"') {
      const c = src[this.pos]!;
      if (c === "\\") {
        const e = src[this.pos + 1];
        if (e === "\n") this.pos += 2;
        else if (e === '"' || e === "\\" || e === "$" || e === "`") {
          text += e;
          this.pos += 2;
        } else {
          text += c;
          this.pos++;
        }
      } else if (c === "$" || c === "`") {
        const part = this.dollarOrBacktick(depth);
        text += part.text;
        dynamic ||= part.dynamic;
      } else {
        text += c;
        this.pos++;
      }
    }
    if (this.pos >= src.length) this.problem("unbalanced double quote");
    this.pos++;
    return { text, dynamic };
  }

  /** One word: quotes removed, escapes applied, expansions read (and their commands collected). */
  word(depth: number): ShellWord {
    const src = this.src;
    let text = "";
    let dynamic = false;
    const start = this.pos;
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (" \t\r\n;&|".includes(c)) break;
      if ((c === "<" || c === ">") && src[this.pos + 1] === "(") {
        this.pos += 2;
        this.list(depth + 1, ")");
        if (src[this.pos] === ")") this.pos++;
        text += "/dev/fd/N";
        dynamic = true;
        continue;
      }
      // NAME=( … ): an array assignment; its elements may hold substitutions
      if (
        c === "(" &&
        /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(text) &&
        src.slice(start, this.pos) === text
      ) {
        this.pos++;
        this.balanced(depth + 1, ")");
        text += "(…)";
        dynamic = true;
        continue;
      }
      if (c === "<" || c === ">" || c === "(" || c === ")") break;
      if (c === "\\") {
        const e = src[this.pos + 1];
        if (e === "\n") this.pos += 2;
        else if (e === undefined) this.pos++;
        else {
          text += e;
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end === -1) {
          this.problem("unbalanced single quote");
          text += src.slice(this.pos + 1);
          this.pos = src.length;
        } else {
          text += src.slice(this.pos + 1, end);
          this.pos = end + 1;
        }
      } else if (c === '"') {
        const part = this.doubleQuoted(depth);
        text += part.text;
        dynamic ||= part.dynamic;
      } else if (c === "$" || c === "`") {
        const part = this.dollarOrBacktick(depth);
        text += part.text;
        dynamic ||= part.dynamic;
      } else {
        // unquoted globs, a leading ~ and brace expansion change the word when it runs
        if (c === "*" || c === "?" || c === "[" || (c === "~" && this.pos === start)) dynamic = true;
        if (c === "{" && /^\{[^\s{}]*(,|\.\.)[^\s{}]*\}/.test(src.slice(this.pos, this.pos + 256)))
          dynamic = true;
        text += c;
        this.pos++;
      }
    }
    return { text, dynamic };
  }
}
