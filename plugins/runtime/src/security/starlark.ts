/**
 * The part of Starlark that Codex rule files use: top-level calls whose arguments are strings,
 * lists, True/False/None and numbers, with comments and trailing commas. Anything else is an
 * error naming its line, never skipped.
 */

export type StarValue = string | number | boolean | null | StarValue[];

export interface StarCall {
  name: string;
  line: number;
  args: StarValue[];
  kwargs: Record<string, StarValue>;
}

type Token = { kind: "name" | "str" | "num" | "punct"; value: string; line: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") i++;
    else if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      let value = "";
      const startLine = line;
      for (; j < text.length && !text.startsWith(quote, j); j++) {
        const d = text[j]!;
        if (d === "\n") {
          if (!triple) throw new Error(`line ${line}: unterminated string`);
          line++;
        }
        if (d === "\\") {
          const e = text[++j] ?? "";
          value +=
            ({ n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"', "'": "'" } as Record<string, string>)[e] ??
            `\\${e}`;
        } else value += d;
      }
      if (j >= text.length) throw new Error(`line ${startLine}: unterminated string`);
      tokens.push({ kind: "str", value, line: startLine });
      i = j + quote.length;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < text.length && /[A-Za-z0-9_]/.test(text[j]!)) j++;
      tokens.push({ kind: "name", value: text.slice(i, j), line });
      i = j;
    } else if (/[0-9-]/.test(c)) {
      let j = i + 1;
      while (j < text.length && /[0-9.]/.test(text[j]!)) j++;
      tokens.push({ kind: "num", value: text.slice(i, j), line });
      i = j;
    } else if ("()[],=".includes(c)) {
      tokens.push({ kind: "punct", value: c, line });
      i++;
    } else throw new Error(`line ${line}: unexpected ${JSON.stringify(c)}`);
  }
  return tokens;
}

/** The top-level calls of a rules file, in order. */
export function starlarkCalls(text: string): StarCall[] {
  const tokens = tokenize(text);
  let k = 0;
  const peek = () => tokens[k];
  const expect = (value: string) => {
    const t = tokens[k];
    if (!t || t.value !== value) throw new Error(`line ${t?.line ?? "end"}: expected ${value}`);
    k++;
  };
  const value = (depth: number): StarValue => {
    const t = tokens[k++];
    if (!t) throw new Error("unexpected end of file");
    if (depth > 32) throw new Error(`line ${t.line}: lists nested too deeply`);
    if (t.kind === "str") {
      let s = t.value;
      // adjacent string literals concatenate
      while (peek()?.kind === "str") s += tokens[k++]!.value;
      return s;
    }
    if (t.kind === "num") return Number(t.value);
    if (t.kind === "name") {
      if (t.value === "True") return true;
      if (t.value === "False") return false;
      if (t.value === "None") return null;
      throw new Error(`line ${t.line}: unsupported name ${t.value} (only literals are read)`);
    }
    if (t.value === "[" || t.value === "(") {
      const close = t.value === "[" ? "]" : ")";
      const items: StarValue[] = [];
      while (peek() && peek()!.value !== close) {
        items.push(value(depth + 1));
        if (peek()?.value === ",") k++;
        else break;
      }
      expect(close);
      return items;
    }
    throw new Error(`line ${t.line}: unexpected ${t.value}`);
  };
  const calls: StarCall[] = [];
  while (k < tokens.length) {
    const name = tokens[k++]!;
    if (name.kind !== "name") throw new Error(`line ${name.line}: expected a function call`);
    expect("(");
    const call: StarCall = { name: name.value, line: name.line, args: [], kwargs: {} };
    while (peek() && peek()!.value !== ")") {
      const t = peek()!;
      if (t.kind === "name" && tokens[k + 1]?.value === "=") {
        k += 2;
        if (t.value in call.kwargs) throw new Error(`line ${t.line}: ${t.value} given twice`);
        call.kwargs[t.value] = value(0);
      } else call.args.push(value(0));
      if (peek()?.value === ",") k++;
      else break;
    }
    expect(")");
    calls.push(call);
  }
  return calls;
}
