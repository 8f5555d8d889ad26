/** Text helpers for edit: BOM, line endings, and the fuzzy space with a map back to the original. */

export function stripBom(text: string): { bom: string; text: string } {
  return text.startsWith("\ufeff") ? { bom: "\ufeff", text: text.slice(1) } : { bom: "", text };
}

/** CRLF iff the first `\n` is preceded by `\r`. */
export function detectLineEnding(text: string): "\r\n" | "\n" {
  const nl = text.indexOf("\n");
  return nl > 0 && text[nl - 1] === "\r" ? "\r\n" : "\n";
}

export function normalizeToLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

export function restoreLineEndings(text: string, ending: "\r\n" | "\n"): string {
  return ending === "\r\n" ? text.replace(/\n/g, "\r\n") : text;
}

const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b]/g;
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;

function foldChar(ch: string): string {
  return ch
    .normalize("NFKC")
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, "-")
    .replace(SPACES, " ");
}

/** pi's fuzzy normalisation of a whole string (used for oldText). */
export function fuzzyNormalize(text: string): string {
  return text
    .split("\n")
    .map((line) => Array.from(line.replace(/\s+$/, ""), foldChar).join(""))
    .join("\n");
}

/**
 * The fuzzy form of a text plus, for every fuzzy offset, the original offset it came from,
 * so a fuzzy match can be spliced into the ORIGINAL text (only the matched region changes).
 */
export function fuzzyWithMap(text: string): { fuzzy: string; map: number[] } {
  let fuzzy = "";
  const map: number[] = [];
  let offset = 0;
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const kept = line.replace(/\s+$/, "");
    let at = offset;
    for (const ch of kept) {
      const folded = foldChar(ch);
      for (let k = 0; k < folded.length; k++) map.push(at);
      fuzzy += folded;
      at += ch.length;
    }
    offset += line.length;
    if (i < lines.length - 1) {
      map.push(offset); // the newline
      fuzzy += "\n";
      offset += 1;
    }
  });
  map.push(text.length);
  return { fuzzy, map };
}

export function countOccurrences(haystack: string, needle: string): number {
  if (!needle) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}
