/**
 * What a model needs to retry a failed edit without another read: the lines of the file closest
 * to what it expected (line number, similarity, a hint naming the difference) and the file's
 * current contents. Behaviour follows OpenClaw 2026.9.6's edit recovery; bounded so a huge file
 * or a huge oldText costs little.
 */

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

function describeIndent(line: string): string {
  const indent = indentOf(line);
  if (!indent) return "none";
  const tabs = indent.split("\t").length - 1;
  const spaces = indent.length - tabs;
  return tabs === 0 ? `${spaces} spaces` : `${spaces} spaces and ${tabs} tabs`;
}

function firstDifference(a: string, b: string): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : shared;
}

function describeDifference(expected: string, found: string): string {
  if (indentOf(expected) !== indentOf(found))
    return `indentation differs (expected ${describeIndent(expected)}, found ${describeIndent(found)})`;
  const slashes = (s: string) => s.split("\\").length - 1;
  if (slashes(expected) !== slashes(found))
    return `escaping differs (expected ${slashes(expected)} backslashes, found ${slashes(found)})`;
  if (expected.normalize("NFC") === found.normalize("NFC")) return "Unicode normalization differs (NFC/NFD)";
  const at = firstDifference(expected, found);
  return at === -1 ? "this line matches; surrounding lines differ" : `first difference at column ${at + 1}`;
}

/** "Closest matching lines:" for the longest line of `oldText`, or "" when nothing is close. */
export function closestLinesHint(content: string, oldText: string): string {
  const expected = boundedLines(oldText, 32, 4096).reduce(
    (best, line) => (line.trim().length > best.trim().length ? line : best),
    "",
  );
  if (!expected.trim()) return "";
  const candidates = boundedLines(content, MAX_SCAN_LINES, MAX_SCAN_CHARS)
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
      `    hint: ${describeDifference(expected, line)}`,
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
