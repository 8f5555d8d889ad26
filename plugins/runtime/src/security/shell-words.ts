/**
 * The word level of the shell reader: quotes, escapes and expansions (`$x`, `${…}`, `$(( ))`,
 * `$( )`, backticks, `$'…'`, process substitution). Commands found inside an expansion are read
 * by the command-level reader (shell-grammar.ts) through `reader()`, so nothing that runs is missed.
 */

export interface ShellWord {
  /** The word after quote removal; dynamic parts are kept as written. */
  text: string;
  /** A part of it is only known when it runs ($x, $( ), globs, ~, brace expansion). */
  dynamic: boolean;
  /**
   * What a strict reading (allowlist mode) refuses in it, the first such part: an expansion, a
   * glob, a line continuation, `$'…'`… Set also for parts that are known statically.
   */
  strict?: string;
}

export interface ShellRedirect {
  op: string;
  /** The descriptor written before the operator (`2>`), when one was. */
  fd?: number;
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
  /** What ended it at its level: `;` `&&` `||` `|` `|&` `&` or a newline; none at the end. */
  separator?: string;
}

export interface ShellParse {
  commands: ParsedCommand[];
  /** Names of functions defined in the line. */
  functions: Set<string>;
  /** What could not be read (nesting too deep, an unterminated quote…); empty when complete. */
  problems: string[];
  /**
   * Constructs beyond a plain list of simple commands (keywords, subshells, groups, background
   * jobs, function definitions…), in reading order: a strict reading refuses the line for them.
   */
  constructs: string[];
}

export const MAX_DEPTH = 400;

/** Nesting deeper than MAX_DEPTH: the reading stops and says so. */
export class TooDeep extends Error {}

export abstract class WordReader {
  pos = 0;
  constructor(
    protected readonly src: string,
    protected readonly out: ShellParse,
  ) {}

  protected problem(text: string) {
    if (this.out.problems.length < 20) this.out.problems.push(text);
  }

  /** Reads a command list until `end` (see shell-grammar.ts). */
  abstract list(depth: number, end: string): void;
  /** A reader of the same kind over another text (a backtick body, a here-document). */
  protected abstract reader(text: string): WordReader;

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
  protected balanced(depth: number, close: string): void {
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
  protected dollarOrBacktick(depth: number): ShellWord {
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
      return { text: src.slice(start, this.pos), dynamic: true, strict: "command substitution" };
    }
    const next = src[this.pos + 1];
    let strict = "variable expansion ($)";
    if (next === "(" && src[this.pos + 2] === "(") {
      this.pos += 3;
      strict = "command substitution";
      this.balanced(depth + 1, "))");
    } else if (next === "(") {
      this.pos += 2;
      strict = "command substitution";
      this.list(depth + 1, ")");
      if (src[this.pos] === ")") this.pos++;
    } else if (next === "{") {
      this.pos += 2;
      this.balanced(depth + 1, "}");
    } else if (next === "'") {
      this.pos++;
      return { text: this.ansiC(), dynamic: false, strict };
    } else if (next === '"') {
      this.pos++;
      return { ...this.doubleQuoted(depth), strict };
    } else if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
      this.pos += 2;
      if (/[A-Za-z_]/.test(next))
        while (this.pos < src.length && /[A-Za-z0-9_]/.test(src[this.pos]!)) this.pos++;
    } else {
      this.pos++;
      return { text: "$", dynamic: false, strict };
    }
    return { text: src.slice(start, this.pos), dynamic: true, strict };
  }

  protected nested(text: string, depth: number): void {
    if (depth + 1 > MAX_DEPTH) throw new TooDeep();
    this.reader(text).list(depth + 1, "");
  }

  /** $'…' with its escapes decoded. */
  protected ansiC(): string {
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

  protected doubleQuoted(depth: number): ShellWord {
    const src = this.src;
    let text = "";
    let dynamic = false;
    let strict: string | undefined;
    this.pos++;
    while (this.pos < src.length && src[this.pos] !== '"') {
      const c = src[this.pos]!;
      if (c === "\\") {
        const e = src[this.pos + 1];
        if (e === "\n") {
          strict ??= "line continuation";
          this.pos += 2;
        } else if (e === '"' || e === "\\" || e === "$" || e === "`") {
          text += e;
          this.pos += 2;
        } else {
          text += c;
          this.pos++;
        }
      } else if (c === "$" || c === "`") {
        strict ??= "expansion inside double quotes";
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
    return { text, dynamic, ...(strict ? { strict } : {}) };
  }

  /** One word: quotes removed, escapes applied, expansions read (and their commands collected). */
  word(depth: number): ShellWord {
    const src = this.src;
    let text = "";
    let dynamic = false;
    let strict: string | undefined;
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
        strict ??= "process substitution";
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
        strict ??= "subshell or function definition";
        continue;
      }
      if (c === "<" || c === ">" || c === "(" || c === ")") break;
      if (c === "\\") {
        const e = src[this.pos + 1];
        if (e === "\n") {
          strict ??= "line continuation";
          this.pos += 2;
        } else if (e === undefined) {
          strict ??= "trailing backslash";
          this.pos++;
        } else {
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
      } else if (c === '"' || c === "$" || c === "`") {
        const part = c === '"' ? this.doubleQuoted(depth) : this.dollarOrBacktick(depth);
        text += part.text;
        dynamic ||= part.dynamic;
        strict ??= part.strict;
      } else {
        // unquoted globs, a leading ~ and brace expansion change the word when it runs
        if (c === "*" || c === "?" || c === "[" || (c === "~" && this.pos === start)) dynamic = true;
        if (c === "{" && /^\{[^\s{}]*(,|\.\.)[^\s{}]*\}/.test(src.slice(this.pos, this.pos + 256)))
          dynamic = true;
        if (c === "*" || c === "?" || c === "[") strict ??= `glob pattern (${c})`;
        else if (c === "~" && this.pos === start) strict ??= "tilde expansion";
        else if (c === "{" || c === "}") strict ??= "brace group or expansion";
        else if (c === "!" && this.pos === start) strict ??= "negation (!)";
        text += c;
        this.pos++;
      }
    }
    return { text, dynamic, ...(strict ? { strict } : {}) };
  }
}
