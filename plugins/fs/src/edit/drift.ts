/**
 * Matches an `oldText` that differs from the file only in a way a model commonly gets wrong and
 * that has one safe reading: every line indented by the same amount more or less than the file
 * (re-indenting `newText` by the same amount), or runs of spaces inside lines (newText as given).
 * Each finds every candidate region, so the caller can refuse an ambiguous one.
 */
import { fuzzyWithMap } from "./normalize.js";

export interface DriftRegion {
  start: number;
  end: number;
  newText: string;
}

export interface DriftResult {
  regions: DriftRegion[];
  /** What was different, for the result text: `4 spaces deeper`, `runs of spaces`. */
  description: string;
}

const LEADING = /^[ \t]*/;
const isBlank = (line: string) => line.trim() === "";

/** `4 spaces`, `1 tab`, `2 spaces and 1 tab`. */
export function describeWhitespace(ws: string): string {
  const tabs = ws.split("\t").length - 1;
  const spaces = ws.length - tabs;
  const parts: string[] = [];
  if (spaces > 0) parts.push(`${spaces} ${spaces === 1 ? "space" : "spaces"}`);
  if (tabs > 0) parts.push(`${tabs} ${tabs === 1 ? "tab" : "tabs"}`);
  return parts.length ? parts.join(" and ") : "none";
}

function commonIndent(lines: string[]): string {
  let common: string | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const indent = LEADING.exec(line)![0];
    if (common === undefined) common = indent;
    else {
      let k = 0;
      while (k < common.length && k < indent.length && common[k] === indent[k]) k++;
      common = common.slice(0, k);
    }
  }
  return common ?? "";
}

/** Re-indents `newText` from the base `given` (oldText's) to `found` (the file's). */
function reindent(newText: string, given: string, found: string): string {
  return newText
    .split("\n")
    .map((line) => {
      if (isBlank(line)) return line;
      if (found.startsWith(given)) return found.slice(given.length) + line;
      const cut = given.length - found.length;
      const indent = LEADING.exec(line)![0];
      return line.startsWith(given)
        ? found + line.slice(given.length)
        : indent.slice(Math.min(cut, indent.length)) + line.slice(indent.length);
    })
    .join("\n");
}

/**
 * Whole lines of `content` equal to `oldText`'s lines with one indentation added or removed
 * from every non-blank line (blank lines match blank lines; trailing whitespace is ignored).
 */
export function findIndentationDrift(content: string, oldText: string, newText: string): DriftResult | null {
  const oldLines = oldText.split("\n");
  const trailingNewline = oldLines.length > 1 && oldLines[oldLines.length - 1] === "";
  if (trailingNewline) oldLines.pop();
  const anchor = oldLines.findIndex((line) => !isBlank(line));
  if (anchor === -1) return null;
  const given = commonIndent(oldLines);
  const body = oldLines.map((line) => (isBlank(line) ? "" : line.slice(given.length).trimEnd()));
  const lines = content.split("\n");
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  const regions: DriftRegion[] = [];
  let found: string | undefined;
  for (let s = 0; s + oldLines.length <= lines.length; s++) {
    const first = lines[s + anchor]!.trimEnd();
    if (!first.endsWith(body[anchor]!)) continue;
    const indent = first.slice(0, first.length - body[anchor]!.length);
    if (indent === given || !/^[ \t]*$/.test(indent)) continue;
    if (!indent.startsWith(given) && !given.startsWith(indent)) continue; // tabs for spaces: not uniform
    const fits = oldLines.every((line, j) =>
      isBlank(line) ? isBlank(lines[s + j]!) : lines[s + j]!.trimEnd() === indent + body[j],
    );
    if (!fits) continue;
    const last = s + oldLines.length - 1;
    let end = starts[last]! + lines[last]!.length;
    if (trailingNewline) {
      if (last === lines.length - 1) continue; // oldText ends with a newline the file lacks here
      end += 1;
    }
    found ??= indent; // more than one region is refused by the caller as ambiguous
    regions.push({ start: starts[s]!, end, newText: reindent(newText, given, indent) });
  }
  if (found === undefined) return null;
  const description = found.startsWith(given)
    ? `${describeWhitespace(found.slice(given.length))} deeper`
    : `${describeWhitespace(given.slice(found.length))} shallower`;
  return { regions, description };
}

/** Collapses each run of spaces and tabs after a line's indentation to one space, with a map back. */
function collapseRuns(text: string): { text: string; from: number[]; to: number[] } {
  let out = "";
  const from: number[] = [];
  const to: number[] = [];
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") lineStart = true;
    else if (c !== " " && c !== "\t") lineStart = false;
    else if (!lineStart) {
      let j = i;
      while (text[j + 1] === " " || text[j + 1] === "\t") j++;
      out += " ";
      from.push(i);
      to.push(j);
      i = j;
      continue;
    }
    out += c;
    from.push(i);
    to.push(i);
  }
  return { text: out, from, to };
}

/**
 * Regions of `content` that match `oldText` once runs of spaces inside lines are collapsed to
 * one (on top of the fuzzy form: trailing whitespace, quotes, dashes, Unicode spellings).
 * Indentation is left alone: that is the other drift.
 */
export function findSpacingDrift(content: string, oldText: string, newText: string): DriftResult | null {
  const fuzzy = fuzzyWithMap(content);
  const hay = collapseRuns(fuzzy.fuzzy);
  const needle = collapseRuns(fuzzyWithMap(oldText).fuzzy).text;
  if (!needle.trim()) return null;
  const regions: DriftRegion[] = [];
  for (let at = hay.text.indexOf(needle); at !== -1; at = hay.text.indexOf(needle, at + needle.length)) {
    const start = fuzzy.map[hay.from[at]!]!;
    const end = fuzzy.ends[hay.to[at + needle.length - 1]!]!;
    regions.push({ start, end, newText });
  }
  return regions.length ? { regions, description: "runs of spaces inside lines" } : null;
}
