/**
 * What a model needs to retry a failed edit without another read: the lines of the file closest
 * to what it expected (line number, similarity, a hint naming the difference) and the file's
 * current contents. Behaviour follows OpenClaw 2026.9.6's edit recovery; bounded so a huge file
 * or a huge oldText costs little.
 */
import { describeWhitespace } from "./drift.js";

const MAX_CANDIDATES = 3;
const MAX_SCAN_LINES = 1000;
const MAX_SCAN_CHARS = 128 * 1024;
const MAX_LINE_CHARS = 120;
const MIN_SCORE = 0.45;
/** How much of the current file an error carries. */
export const CONTENTS_HINT_CHARS = 800;

function cutSafe(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

function boundedLines(text: string, maxLines: number, maxChars: number): string[] {
  return cutSafe(text, maxChars)
    .split("\n", maxLines)
    .map((line) => cutSafe(line, MAX_LINE_CHARS));
}

/** Edit distance with two rows (inputs are short here: lines ≤ 120 characters, file names). */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length]!;
}

function similarity(expected: string, found: string): number {
  const a = expected.trim();
  const b = found.trim();
  const longest = Math.max(a.length, b.length);
  if (longest === 0 || Math.min(a.length, b.length) / longest < MIN_SCORE) return 0;
  return 1 - distance(a, b) / longest;
}

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];

function firstDifference(a: string, b: string): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : shared;
}

/** Runs of spaces/tabs after the indentation collapsed to one space: what spacing drift ignores. */
const collapse = (line: string) => {
  const indent = indentOf(line);
  return (
    indent +
    line
      .slice(indent.length)
      .trimEnd()
      .replace(/[ \t]+/g, " ")
  );
};

/** The first run of spaces inside the line that differs: `expected 2 spaces at column 7, found 1`. */
function spacingDifference(expected: string, found: string): string {
  const runs = (line: string) => [...line.trimEnd().matchAll(/(?<=\S)[ \t]+/g)];
  const a = runs(expected);
  const b = runs(found);
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    if (a[k]![0] !== b[k]![0])
      return `spacing inside the line differs (expected ${describeWhitespace(a[k]![0])} at column ${a[k]!.index + 1}, found ${describeWhitespace(b[k]![0])})`;
  }
  return "spacing inside the line differs";
}

const TYPOGRAPHIC = /[\u2018-\u201f\u2010-\u2015\u2212\u00a0\u2002-\u200a\u202f\u205f\u3000]/u;

/** The kind of difference between one expected line and one file line, most specific first. */
export function describeDifference(expected: string, found: string): string {
  if (expected === found) return "identical";
  if (expected.trimEnd() === found.trimEnd()) return "trailing whitespace differs";
  const [ei, fi] = [indentOf(expected), indentOf(found)];
  const sameText = expected.slice(ei.length).trimEnd() === found.slice(fi.length).trimEnd();
  if (ei !== fi && sameText)
    return `indentation differs (expected ${describeWhitespace(ei)}, found ${describeWhitespace(fi)})`;
  if (ei === fi && collapse(expected) === collapse(found)) return spacingDifference(expected, found);
  if (expected.normalize("NFC") === found.normalize("NFC")) return "Unicode normalization differs (NFC/NFD)";
  const at = firstDifference(expected, found);
  const slashes = (s: string) => s.split("\\").length - 1;
  if (slashes(expected) !== slashes(found) && expected.replace(/\\/g, "") === found.replace(/\\/g, ""))
    return `escaping differs (expected ${slashes(expected)} backslashes, found ${slashes(found)})`;
  const typographic = [expected[at], found[at]].find((c) => c !== undefined && TYPOGRAPHIC.test(c));
  const where = `first difference at column ${at + 1}`;
  if (typographic) return `${where} (${JSON.stringify(typographic)} is a typographic character)`;
  return ei === fi
    ? where
    : `${where}; indentation differs too (expected ${describeWhitespace(ei)}, found ${describeWhitespace(fi)})`;
}

/**
 * When the chosen line of oldText matches a file line exactly, the mismatch is in another line:
 * line the rest of oldText up against the file there and name the first line that differs.
 */
function alignedDifference(
  oldLines: string[],
  index: number,
  fileLines: string[],
  lineIndex: number,
): string {
  for (let j = 0; j < oldLines.length; j++) {
    if (j === index) continue;
    const fileLine = fileLines[lineIndex - index + j];
    const expected = oldLines[j]!;
    if (fileLine === undefined)
      return `this line matches; oldText line ${j + 1} falls ${j < index ? "before the start" : "past the end"} of the file`;
    if (fileLine !== expected)
      return `this line matches; oldText line ${j + 1} differs from file line ${lineIndex - index + j + 1}: ${describeDifference(expected, fileLine)}`;
  }
  return "this line and its neighbours match; the difference is at the start or end of oldText";
}

/** "Closest matching lines:" for the longest line of `oldText`, or "" when nothing is close. */
export function closestLinesHint(content: string, oldText: string): string {
  const oldLines = boundedLines(oldText, 32, 4096);
  const expectedIndex = oldLines.reduce(
    (best, line, k) => (line.trim().length > oldLines[best]!.trim().length ? k : best),
    0,
  );
  const expected = oldLines[expectedIndex]!;
  if (!expected.trim()) return "";
  const fileLines = boundedLines(content, MAX_SCAN_LINES, MAX_SCAN_CHARS);
  const candidates = fileLines
    .map((line, index) => ({ line, lineNumber: index + 1, score: similarity(expected, line) }))
    .filter((c) => c.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.lineNumber - b.lineNumber)
    .slice(0, MAX_CANDIDATES);
  if (candidates.length === 0) return "";
  const shownExpected = JSON.stringify(expected);
  const blocks = candidates.map(({ line, lineNumber, score }) => {
    const shownFound = JSON.stringify(line);
    const diffAt = firstDifference(shownExpected, shownFound);
    const marker = diffAt === -1 ? Math.min(shownExpected.length, shownFound.length) : diffAt;
    const width = Math.max(1, Math.min(12, Math.max(shownExpected.length, shownFound.length) - marker));
    return [
      `  near line ${lineNumber} (${Math.round(score * 100)}% match):`,
      `    expected: ${shownExpected}`,
      `    found:    ${shownFound}`,
      `              ${" ".repeat(marker)}${"^".repeat(width)}`,
      `    hint: ${
        line === expected
          ? alignedDifference(oldLines, expectedIndex, fileLines, lineNumber - 1)
          : describeDifference(expected, line)
      }`,
    ].join("\n");
  });
  return `\nClosest matching lines:\n${blocks.join("\n")}`;
}

/** The file's current contents (first 800 characters) for an error a model will retry from. */
export function currentContentsHint(content: string): string {
  const snippet =
    content.length <= CONTENTS_HINT_CHARS
      ? content
      : `${cutSafe(content, CONTENTS_HINT_CHARS)}\n... (truncated)`;
  return `\nCurrent file contents:\n${snippet}`;
}

const MAX_SHOWN_CANDIDATES = 5;
const MAX_LINES_PER_CANDIDATE = 3;

/**
 * For an ambiguous match: where each candidate is (its line numbers) and a few of its lines
 * with one line of context either side, so the model can add what makes its pick unique.
 */
export function candidatesHint(content: string, regions: Array<{ start: number; end: number }>): string {
  const lineStarts = [0];
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let [lo, hi] = [0, lineStarts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo; // 0-based
  };
  const lines = content.split("\n", lineStarts.length);
  if (lines.length > 1 && lines.at(-1) === "") lines.pop(); // the final newline ends a line, not one more
  const width = String(lineStarts.length).length;
  const blocks = regions.slice(0, MAX_SHOWN_CANDIDATES).map(({ start, end }, k) => {
    const first = lineOf(start);
    const last = lineOf(Math.max(start, end - 1));
    const span = first === last ? `line ${first + 1}` : `lines ${first + 1}-${last + 1}`;
    const shownLast = Math.min(last, first + MAX_LINES_PER_CANDIDATE - 1);
    const out = [`  candidate ${k + 1} at ${span}:`];
    for (let l = Math.max(0, first - 1); l <= Math.min(lines.length - 1, shownLast + 1); l++) {
      const mark = l >= first && l <= last ? ">" : " ";
      out.push(`  ${mark} ${String(l + 1).padStart(width)} | ${cutSafe(lines[l]!, MAX_LINE_CHARS)}`);
    }
    if (shownLast < last)
      out.push(`    ${"".padStart(width)}   ... (${last - shownLast} more matched lines)`);
    return out.join("\n");
  });
  const more =
    regions.length > MAX_SHOWN_CANDIDATES ? `\n  ... and ${regions.length - MAX_SHOWN_CANDIDATES} more` : "";
  return `\n${blocks.join("\n")}${more}`;
}
