/** Text helpers for edit: LF normalisation of model text, and the fuzzy space with a map back to the original. */

export function normalizeToLF(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
}

const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b]/g;
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;
const SPACES = /[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;

function fold(cluster: string): string {
  return cluster
    .normalize("NFKC")
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, "-")
    .replace(SPACES, " ");
}

/**
 * A base character with the combining marks after it: folded as one unit, so the NFC and NFD
 * spellings of the same text (`é` and `e` + U+0301) have the same fuzzy form.
 */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;

/** pi's fuzzy normalisation of a whole string (used for oldText). */
export function fuzzyNormalize(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+$/, "").replace(CLUSTER, fold))
    .join("\n");
}

/**
 * The fuzzy form of a text plus, for every fuzzy offset, the original offsets its character
 * came from (start and end), so a fuzzy match can be spliced into the ORIGINAL text (only the
 * matched region changes).
 */
export function fuzzyWithMap(text: string): { fuzzy: string; map: number[]; ends: number[] } {
  let fuzzy = "";
  const map: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const kept = line.replace(/\s+$/, "");
    for (const match of kept.matchAll(CLUSTER)) {
      const folded = fold(match[0]);
      const from = offset + match.index;
      for (let k = 0; k < folded.length; k++) {
        map.push(from);
        ends.push(from + match[0].length);
      }
      fuzzy += folded;
    }
    offset += line.length;
    if (i < lines.length - 1) {
      map.push(offset); // the newline
      ends.push(offset + 1);
      fuzzy += "\n";
      offset += 1;
    }
  });
  map.push(text.length);
  ends.push(text.length);
  return { fuzzy, map, ends };
}
