/**
 * Line endings as a property of each line, not of the file: a file is split into LF text plus
 * the ending each line had, the tools edit the LF text, and the result is joined back giving
 * every untouched line its own ending and every new line the ending of the lines around it.
 * So a CRLF file stays CRLF, a CR-only file stays CR, and a mixed file changes only where edited.
 */
import { diffArrays } from "diff";

export type Eol = "\r\n" | "\n" | "\r";

export interface LinedText {
  bom: string;
  /** The text with every line ending as `\n`. */
  text: string;
  /** The ending of line i (every line but the last, which has none). */
  eols: Eol[];
  /** The most common ending (`\n` for a file with none), for lines with no neighbour to follow. */
  dominant: Eol;
  /** Every ending is `\n` (no `\r` in the text): joining back is the edited text as it is. */
  lfOnly?: boolean;
}

const EOL = /\r\n|\r|\n/g;

export function splitEndings(raw: string): LinedText {
  const bom = raw.startsWith("\ufeff") ? "\ufeff" : "";
  const body = bom ? raw.slice(1) : raw;
  // the common case, without a callback per line
  if (!body.includes("\r")) {
    let lines = 0;
    for (let at = body.indexOf("\n"); at !== -1; at = body.indexOf("\n", at + 1)) lines++;
    return { bom, text: body, eols: new Array<Eol>(lines).fill("\n"), dominant: "\n", lfOnly: true };
  }
  const eols: Eol[] = [];
  const counts = { "\r\n": 0, "\n": 0, "\r": 0 };
  const text = body.replace(EOL, (m) => {
    eols.push(m as Eol);
    counts[m as Eol]++;
    return "\n";
  });
  const dominant = (["\n", "\r\n", "\r"] as const).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return { bom, text, eols, dominant };
}

/** Middle blocks larger than this are not diffed line by line: new lines take their neighbours' ending. */
const MAX_DIFF_LINES = 20_000;

/**
 * `updated` (LF text derived from `original.text`) with original line endings: lines kept
 * from the original keep theirs; a changed line takes the ending of the line it replaced, an
 * added line the ending of the line above it (or below it at the top of the file).
 */
export function joinEndings(original: LinedText, updated: string): string {
  const { eols, dominant } = original;
  // every line, kept or new, ends with the only ending there is
  if (original.lfOnly || (eols.length === 0 && dominant === "\n")) return original.bom + updated;
  const before = original.text.split("\n");
  const after = updated.split("\n");
  const [o, n] = [before.length, after.length];
  let p = 0;
  while (p < o && p < n && before[p] === after[p]) p++;
  let s = 0;
  while (s < o - p && s < n - p && before[o - 1 - s] === after[n - 1 - s]) s++;
  const out: Array<Eol | undefined> = new Array(n);
  for (let i = 0; i < p; i++) out[i] = eols[i];
  for (let k = 0; k < s; k++) out[n - 1 - k] = eols[o - 1 - k];
  // the middle block: what was removed there, aligned with what was added
  const oldMid = before.slice(p, o - s);
  const newMid = after.slice(p, n - s);
  const below = eols[o - s] ?? eols[o - s - 1];
  let above: Eol | undefined = p > 0 ? eols[p - 1] : undefined;
  let at = p;
  if (oldMid.length + newMid.length <= MAX_DIFF_LINES) {
    let oi = p;
    let removed: Array<Eol | undefined> = [];
    for (const part of diffArrays(oldMid, newMid)) {
      const count = part.value.length;
      if (part.removed) {
        removed = eols.slice(oi, oi + count);
        oi += count;
        continue;
      }
      for (let k = 0; k < count; k++, at++) {
        if (part.added) out[at] = removed[k] ?? removed.at(-1) ?? above ?? below;
        else out[at] = eols[oi++];
        above = out[at] ?? above;
      }
      if (!part.added) removed = [];
    }
  } else {
    const replaced = eols.slice(p, o - s);
    for (let k = 0; at < n - s; at++, k++) out[at] = replaced[k] ?? replaced.at(-1) ?? above ?? below;
  }
  let text = original.bom;
  for (let i = 0; i < n; i++) {
    text += after[i]!;
    if (i < n - 1) text += out[i] ?? out[i - 1] ?? dominant;
  }
  return text;
}
