/**
 * The shell reader behind the exec policy. Unlike the strict reader of allowlist mode it accepts
 * the whole of bash's command grammar and finds every simple command that could run: lists and
 * pipelines, subshells, brace groups, compound commands, `$( )`, backticks, process substitution,
 * `${ … }` and `$(( … ))` with substitutions inside, here-documents (their bodies are kept, and
 * unquoted ones are searched for substitutions), and function definitions. A word remembers
 * whether any part of it is only known at run time (`dynamic`). One pass over the input;
 * nesting deeper than MAX_DEPTH stops the reading and is reported, never silently dropped.
 */

import {
  MAX_DEPTH,
  type ParsedCommand,
  type ShellParse,
  type ShellRedirect,
  TooDeep,
  WordReader,
} from "./shell-words.js";

export {
  MAX_DEPTH,
  type ParsedCommand,
  type ShellParse,
  type ShellRedirect,
  type ShellWord,
} from "./shell-words.js";

const SOURCE_CHARS = 300;

const KEYWORD_PREFIXES = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"]);
const KEYWORD_ENDS = new Set(["fi", "done", "esac", "}"]);
/** Reserved words read as commands here but refused by a strict reading. */
const STRICT_KEYWORDS = new Set(["case", "for", "select", "[[", "]]", "function", "in", "coproc"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

interface Frame {
  cmd: ParsedCommand;
  start: number;
}

/** Parses one command line (bounded nesting) into every simple command it could run. */
export function parseShell(line: string): ShellParse {
  const out: ShellParse = { commands: [], functions: new Set(), problems: [], constructs: [] };
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

class Reader extends WordReader {
  private pendingHeredocs: { redirect: ShellRedirect; delimiter: string; strip: boolean; depth: number }[] =
    [];
  protected reader(text: string): Reader {
    return new Reader(text, this.out);
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
    const construct = (what: string) => {
      if (this.out.constructs.length < 20) this.out.constructs.push(what);
    };
    const finish = (nextPiped: boolean, separator?: string) => {
      const cmd = frame.cmd;
      if (cmd.words.length || cmd.assignments.length || cmd.redirects.length) {
        cmd.piped = piped;
        cmd.source = src.slice(frame.start, this.pos).trim().slice(0, SOURCE_CHARS);
        if (separator) cmd.separator = separator;
        this.out.commands.push(cmd);
      } else if (separator && separator !== "\n") construct(`empty command before ${separator}`);
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
        construct("line continuation");
        this.pos += 2;
        continue;
      }
      if (c === "\n") {
        finish(false, "\n");
        this.pos++;
        this.readHeredocBodies();
        frame.start = this.pos;
        continue;
      }
      // a word that starts with # starts a comment (inside a word, # is a character: word() keeps it)
      if (c === "#") {
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
          construct(";;");
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
        const separator = two ? c + next : c;
        if (separator === "&") construct("background job (&)");
        else if (separator === "|&") construct("|& pipe");
        finish(c === "|" && !(next === "|"), separator);
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
        construct("subshell or function definition");
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
          construct("subshell or function definition");
          this.out.functions.add(frame.cmd.words[0]!.text);
          this.pos += close[0].length;
          frame = { cmd: emptyCommand(), start: this.pos };
          continue;
        }
      }
      if (c === "(") {
        construct("subshell or function definition");
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
        if (KEYWORD_PREFIXES.has(word.text) || KEYWORD_ENDS.has(word.text) || STRICT_KEYWORDS.has(word.text))
          construct(
            word.text === "{" || word.text === "}"
              ? "brace group or expansion"
              : word.text === "!"
                ? "negation (!)"
                : `shell keyword ${word.text}`,
          );
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
    const fd = m[1] ? { fd: Number(m[1]) } : {};
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
      const redirect: ShellRedirect = { op, ...fd, input: { text: "", literal } };
      cmd.redirects.push(redirect);
      this.pendingHeredocs.push({ redirect, delimiter: delimiter.text, strip: op === "<<-", depth });
      return;
    }
    const target = this.word(depth);
    if (op === "<<<")
      cmd.redirects.push({ op, ...fd, input: { text: target.text, literal: !target.dynamic } });
    else cmd.redirects.push({ op, ...fd, target });
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
        this.reader(body).expansionsOnly(doc.depth + 1);
      }
    }
  }
}
