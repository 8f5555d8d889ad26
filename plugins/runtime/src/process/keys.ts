import { quotePrefix } from "../text.js";

/** tmux-style key names → the bytes a terminal sends. */
const KEYS: Record<string, string> = {
  enter: "\r",
  return: "\r",
  tab: "\t",
  btab: "\x1b[Z",
  escape: "\x1b",
  esc: "\x1b",
  space: " ",
  bspace: "\x7f",
  backspace: "\x7f",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[1~",
  end: "\x1b[4~",
  pageup: "\x1b[5~",
  pgup: "\x1b[5~",
  ppage: "\x1b[5~",
  pagedown: "\x1b[6~",
  pgdn: "\x1b[6~",
  npage: "\x1b[6~",
  insert: "\x1b[2~",
  ic: "\x1b[2~",
  delete: "\x1b[3~",
  del: "\x1b[3~",
  dc: "\x1b[3~",
  f1: "\x1bOP",
  f2: "\x1bOQ",
  f3: "\x1bOR",
  f4: "\x1bOS",
  f5: "\x1b[15~",
  f6: "\x1b[17~",
  f7: "\x1b[18~",
  f8: "\x1b[19~",
  f9: "\x1b[20~",
  f10: "\x1b[21~",
  f11: "\x1b[23~",
  f12: "\x1b[24~",
  kpenter: "\x1bOM",
  "kp/": "\x1bOo",
  "kp*": "\x1bOj",
  "kp-": "\x1bOm",
  "kp+": "\x1bOk",
  "kp.": "\x1bOn",
};
for (let d = 0; d <= 9; d++) KEYS[`kp${d}`] = `\x1bO${String.fromCharCode(0x70 + d)}`;

const ARROW_FINAL: Record<string, string> = { up: "A", down: "B", right: "C", left: "D" };

export interface EncodedKeys {
  data: string;
  warnings: string[];
}

function ctrl(ch: string): string | undefined {
  const c = ch.toLowerCase();
  if (c >= "a" && c <= "z") return String.fromCharCode(c.charCodeAt(0) - 96);
  const special: Record<string, string> = {
    "@": "\0",
    "[": "\x1b",
    "\\": "\x1c",
    "]": "\x1d",
    "^": "\x1e",
    _: "\x1f",
    "?": "\x7f",
    " ": "\0",
  };
  return special[c];
}

// no key name or modifier chain is longer; longer tokens are refused before any parsing
const MAX_KEY_TOKEN = 32;

/** One key token: `C-c`, `^C`, `M-x`, `S-tab`, `enter`, `up`, or a literal character. */
export function encodeKeyToken(token: string, applicationCursor = false): string | undefined {
  if (token.length > MAX_KEY_TOKEN) return undefined;
  let rest = token;
  let control = false;
  let meta = false;
  let shift = false;
  for (;;) {
    const m = /^([CMS])-(.+)$/i.exec(rest);
    if (!m) break;
    const mod = m[1]!.toUpperCase();
    if (mod === "C") control = true;
    else if (mod === "M") meta = true;
    else shift = true;
    rest = m[2]!;
  }
  if (/^\^.$/.test(rest)) {
    control = true;
    rest = rest.slice(1);
  }
  const lower = rest.toLowerCase();
  let seq: string | undefined;
  if (shift && lower === "tab") seq = "\x1b[Z";
  else if (lower in ARROW_FINAL && (control || meta || shift)) {
    const mod = 1 + (shift ? 1 : 0) + (meta ? 2 : 0) + (control ? 4 : 0);
    return `\x1b[1;${mod}${ARROW_FINAL[lower]}`;
  } else if (lower in ARROW_FINAL && applicationCursor) seq = `\x1bO${ARROW_FINAL[lower]}`;
  else if (KEYS[lower] !== undefined && rest.length > 1) seq = KEYS[lower];
  else if ([...rest].length === 1) {
    seq = control ? ctrl(rest) : shift ? rest.toUpperCase() : rest;
    if (seq === undefined) return undefined;
    return meta ? `\x1b${seq}` : seq;
  }
  if (seq === undefined) return undefined;
  return meta ? `\x1b${seq}` : seq;
}

/** send-keys: literal text first, then hex bytes, then key tokens; bad input becomes warnings. */
export function encodeSendKeys(
  input: { literal?: string; hex?: string[]; keys?: string[] },
  applicationCursor = false,
): EncodedKeys {
  const warnings: string[] = [];
  let data = input.literal ?? "";
  for (const h of input.hex ?? []) {
    const clean = h.replace(/^0x/i, "");
    if (!/^[0-9a-f]{1,2}$/i.test(clean)) {
      warnings.push(`Invalid hex byte ${quotePrefix(h, 16)} ignored`);
      continue;
    }
    data += String.fromCharCode(Number.parseInt(clean, 16));
  }
  for (const key of input.keys ?? []) {
    const seq = encodeKeyToken(key, applicationCursor);
    if (seq === undefined) warnings.push(`Unknown key ${quotePrefix(key, 32)} ignored`);
    else data += seq;
  }
  return { data, warnings };
}

export const BRACKETED_PASTE_START = "\x1b[200~";
export const BRACKETED_PASTE_END = "\x1b[201~";
