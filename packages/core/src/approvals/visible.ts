/**
 * Characters a terminal or a form would not show as themselves: C0/C1 controls and DEL (CR
 * rewinds the line, ESC starts an ANSI sequence), Unicode format characters (bidi overrides and
 * isolates, zero-width space/joiners, BOM, tag characters) and the line/paragraph separators.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\u{${code.toString(16)}}`;
}

/**
 * `text` as a person must see it before approving it: every character that could hide, move or
 * reorder what is shown is written as an escape (`\r`, `\x1b`, `\u202e`), so
 * `touch pwned.txt #\r\x1b[2Kls -la` shows as exactly that, never as `ls -la`.
 */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, escapeChar);
}
