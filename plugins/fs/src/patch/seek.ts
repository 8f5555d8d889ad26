const PUNCT: Array<[RegExp, string]> = [
  [/[\u2010-\u2015\u2212]/g, "-"],
  [/[\u2018\u2019\u201a\u201b]/g, "'"],
  [/[\u201c\u201d\u201e\u201f]/g, '"'],
  [/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, " "],
];
const normPunct = (s: string) => PUNCT.reduce((acc, [re, to]) => acc.replace(re, to), s.trim());

/** Progressively looser line comparisons: exact, trimEnd, trim, trim + punctuation folding. */
const COMPARATORS: Array<(a: string, b: string) => boolean> = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => normPunct(a) === normPunct(b),
];

/**
 * Index where `pattern` occurs in `lines` at or after `start`. A chunk marked `*** End of File`
 * (`eof`) is anchored to the end, as the Codex patch format defines: only the last
 * `pattern.length` lines are tried, never an earlier look-alike.
 */
export function seekSequence(lines: string[], pattern: string[], start: number, eof: boolean): number {
  if (pattern.length === 0) return eof ? lines.length : start;
  if (pattern.length > lines.length) return -1;
  const last = lines.length - pattern.length;
  const first = eof ? Math.max(start, last) : start;
  for (const same of COMPARATORS) {
    const at = (i: number) => pattern.every((p, k) => same(lines[i + k]!, p));
    for (let i = first; i <= last; i++) if (at(i)) return i;
  }
  return -1;
}
