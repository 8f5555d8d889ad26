/** One simple command of a command line: its words after quote removal. */
export type Segment = string[];

export type Analysis = { ok: true; segments: Segment[] } | { ok: false; reason: string };

/**
 * Splits a shell command line into simple commands: pipes, `&&`, `||`, `;`, `&`, newlines,
 * subshells `( … )`, `$( … )` and backticks each start a new segment. Anything we cannot
 * reason about (heredocs, unbalanced quotes, process substitution) fails the analysis.
 */
export function analyzeCommandLine(line: string): Analysis {
  const segments: Segment[] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length) segments.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) return { ok: false, reason: "unbalanced single quote" };
      word += line.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      let text = "";
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length) text += line[++j];
        else if (line[j] === "`" || (line[j] === "$" && line[j + 1] === "(")) {
          return { ok: false, reason: "command substitution inside double quotes" };
        } else text += line[j];
      }
      if (j >= line.length) return { ok: false, reason: "unbalanced double quote" };
      word += text;
      inWord = true;
      i = j;
    } else if (c === "\\") {
      if (line[i + 1] === "\n") i++;
      else {
        word += line[i + 1] ?? "";
        inWord = true;
        i++;
      }
    } else if (c === "<" && line[i + 1] === "<") {
      return { ok: false, reason: "heredoc" };
    } else if ((c === "<" || c === ">") && line[i + 1] === "(") {
      return { ok: false, reason: "process substitution" };
    } else if (c === "$" && line[i + 1] === "(") {
      endSegment();
      i++;
    } else if (c === "`" || c === "(" || c === ")") {
      endSegment();
    } else if (c === "|" || c === "&" || c === ";" || c === "\n") {
      if (c === "&" && (line[i + 1] === ">" || line[i - 1] === ">")) {
        word += c;
        inWord = true;
      } else endSegment();
    } else if (c === " " || c === "\t") {
      endWord();
    } else {
      word += c;
      inWord = true;
    }
  }
  endSegment();
  return { ok: true, segments: segments.map(stripAssignmentsAndRedirects).filter((s) => s.length > 0) };
}

/** Drops leading `VAR=value` words and redirections (`>file`, `2>&1`, `< in`). */
function stripAssignmentsAndRedirects(words: Segment): Segment {
  const out: string[] = [];
  let leading = true;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (leading && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue;
    leading = false;
    if (/^\d*(>>?|<)&?\d*$/.test(w)) {
      if (!/&\d+$/.test(w)) i++; // the redirection target is the next word
      continue;
    }
    if (/^\d*(>>?|<)&?./.test(w)) continue;
    out.push(w);
  }
  return out;
}
