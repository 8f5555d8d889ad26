/**
 * Tab/space drift: the model wrote spaces where the file indents with tabs, or the reverse.
 * It lands only when one reading is possible: some tab width makes every line of oldText as
 * deep as the file's line (or all deeper by one amount), and every width that fits gives the
 * same newText. newText is then re-indented in the file's own characters.
 */
import type { DriftRegion, DriftResult } from "./drift.js";

const LEADING = /^[ \t]*/;
const WIDTHS = [4, 2, 8, 3];
const isBlank = (line: string) => line.trim() === "";
const indentOf = (line: string) => LEADING.exec(line)![0];

/** The column an indentation reaches with tab stops every `width` columns. */
export function columns(indent: string, width: number): number {
  let col = 0;
  for (const c of indent) col = c === "\t" ? (Math.floor(col / width) + 1) * width : col + 1;
  return col;
}

/** An indentation of `cols` columns in the file's characters (tabs first when it uses tabs). */
function spell(cols: number, width: number, tabs: boolean): string {
  return tabs ? "\t".repeat(Math.floor(cols / width)) + " ".repeat(cols % width) : " ".repeat(cols);
}

/**
 * How to carry an indentation written by the model into the file, learnt from lines that
 * match (model's indentation → file's), or null when no width fits or the widths disagree on
 * `sample` (the newText lines that will be re-indented).
 */
export function indentConverter(
  pairs: Array<[given: string, found: string]>,
  sample: string[],
): ((indent: string) => string) | null {
  const tabs = pairs.some(([, f]) => f.includes("\t"));
  const fits: Array<{ width: number; delta: number }> = [];
  for (const width of WIDTHS) {
    const deltas = new Set(pairs.map(([g, f]) => columns(f, width) - columns(g, width)));
    if (deltas.size === 1) fits.push({ width, delta: [...deltas][0]! });
  }
  // the same depth in another character is the common slip: prefer it when some width gives it
  const same = fits.filter((f) => f.delta === 0);
  const chosen = same.length ? same : fits;
  if (chosen.length === 0) return null;
  const make =
    ({ width, delta }: { width: number; delta: number }) =>
    (indent: string) =>
      spell(Math.max(0, columns(indent, width) + delta), width, tabs);
  const candidates = chosen.map(make);
  const outcome = (convert: (i: string) => string) => sample.map((l) => convert(indentOf(l))).join("\n");
  const first = outcome(candidates[0]!);
  if (candidates.some((c) => outcome(c) !== first)) return null;
  return candidates[0]!;
}

export function reindentWith(text: string, convert: (indent: string) => string): string {
  return text
    .split("\n")
    .map((line) => (isBlank(line) ? line : convert(indentOf(line)) + line.slice(indentOf(line).length)))
    .join("\n");
}

/** Whole lines of `content` that equal oldText's lines once tabs and spaces of indentation are read as columns. */
export function findTabDrift(content: string, oldText: string, newText: string): DriftResult | null {
  const oldLines = oldText.split("\n");
  const trailingNewline = oldLines.length > 1 && oldLines[oldLines.length - 1] === "";
  if (trailingNewline) oldLines.pop();
  if (!oldLines.some((l) => !isBlank(l))) return null;
  const body = oldLines.map((l) => l.slice(indentOf(l).length).trimEnd());
  const lines = content.split("\n");
  const regions: DriftRegion[] = [];
  let fileTabs: boolean | undefined;
  const newLines = newText.split("\n");
  for (let s = 0, at = 0; s + oldLines.length <= lines.length; at += lines[s]!.length + 1, s++) {
    const pairs: Array<[string, string]> = [];
    let fits = true;
    for (let j = 0; j < oldLines.length && fits; j++) {
      const [want, have] = [oldLines[j]!, lines[s + j]!];
      if (isBlank(want)) fits = isBlank(have);
      else if (have.slice(indentOf(have).length).trimEnd() !== body[j]) fits = false;
      else pairs.push([indentOf(want), indentOf(have)]);
    }
    // tabs against spaces somewhere, or this is another drift's business
    if (!fits || !pairs.some(([g, f]) => g.includes("\t") !== f.includes("\t"))) continue;
    const convert = indentConverter(pairs, newLines);
    if (!convert) continue;
    const last = s + oldLines.length - 1;
    let end = at;
    for (let k = s; k <= last; k++) end += lines[k]!.length + (k < last ? 1 : 0);
    if (trailingNewline) {
      if (last === lines.length - 1) continue;
      end += 1;
    }
    fileTabs ??= pairs.some(([, f]) => f.includes("\t"));
    regions.push({ start: at, end, newText: reindentWith(newText, convert) });
  }
  if (regions.length === 0) return null;
  return { regions, description: fileTabs ? "tabs (oldText has spaces)" : "spaces (oldText has tabs)" };
}
