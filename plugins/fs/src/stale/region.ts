/**
 * Judging a change by the region it touches: which lines of the file now differ from what the
 * session saw, whether a change's lines meet them, and the three-way preview of a refusal.
 */
import { diffArrays } from "diff";
import { MAX_SEEN_BYTES } from "./seen-files.js";

/** Line ranges of `now` (0-based, end exclusive) that differ from `then`; a deletion is an empty range. */
export function changedRanges(then: string, now: string): Array<[number, number]> {
  return changedLineRanges(then.split("\n"), now.split("\n"));
}

/** The same over lines given as values (texts, or hashes of them). */
export function changedLineRanges(a: readonly unknown[], b: readonly unknown[]): Array<[number, number]> {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const ranges: Array<[number, number]> = [];
  let at = p;
  let pendingDelete = false;
  const midA = a.slice(p, a.length - s) as unknown[];
  const midB = b.slice(p, b.length - s) as unknown[];
  if (midA.length + midB.length > 20_000) return [[p, b.length - s]];
  for (const part of diffArrays(midA, midB)) {
    const n = part.value.length;
    if (part.removed) pendingDelete = true;
    else if (part.added) {
      ranges.push([at, at + n]);
      at += n;
      pendingDelete = false;
    } else {
      if (pendingDelete) ranges.push([at, at]);
      pendingDelete = false;
      at += n;
    }
  }
  if (pendingDelete) ranges.push([at, at]);
  return ranges;
}

/** Whether lines first..last (0-based, inclusive) meet a changed range. */
export function touches(ranges: Array<[number, number]>, first: number, last: number): boolean {
  return ranges.some(([from, to]) => (to > from ? from <= last && to > first : from > first && from <= last));
}

export const lineOf = (text: string, offset: number) => {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
};

const MAX_PREVIEW_LINES = 12;

/** Lines of `to` that stand where lines first..last of `from` stand: bounded by the unchanged lines around them. */
function corresponding(from: string, to: string, first: number, last: number): [number, number] {
  const a = from.split("\n");
  const b = to.split("\n");
  let [ai, bi] = [0, 0];
  let [lo, hi] = [0, b.length - 1];
  outer: for (const part of diffArrays(a, b)) {
    const n = part.value.length;
    if (part.added) bi += n;
    else if (part.removed) ai += n;
    else
      for (let k = 0; k < n; k++, ai++, bi++) {
        if (ai < first) lo = bi + 1;
        else if (ai > last) {
          hi = bi - 1;
          break outer;
        }
      }
  }
  const top = Math.min(lo, b.length - 1);
  return [top, Math.min(Math.max(top, hi), b.length - 1)];
}

function excerpt(text: string, first: number, last: number): string {
  const lines = text.split("\n");
  const end = Math.min(last, first + MAX_PREVIEW_LINES - 1, lines.length - 1);
  const out = [];
  for (let l = first; l <= end; l++) out.push(`  ${l + 1} | ${lines[l]}`);
  if (end < last) out.push(`  ... (${last - end} more lines)`);
  return out.join("\n");
}

/**
 * The refusal: where the change meets lines changed on disk, what the model saw there, what is
 * there now, and what it wanted (lines of `then`, `now` and `wanted` around the region).
 */
export function staleRefusal(args: {
  shown: string;
  /** What the session saw (undefined for a file too large to keep: only its line digest was). */
  seen: string | undefined;
  now: string;
  wanted: string;
  first: number;
  last: number;
}): string {
  const { shown, seen, now, wanted, first, last } = args;
  const [wantedFirst, wantedLast] = corresponding(now, wanted, first, last);
  const saw =
    seen === undefined
      ? `  (not kept: the file is over ${MAX_SEEN_BYTES / (1024 * 1024)} MB, so only which lines changed is known)`
      : excerpt(seen, ...corresponding(now, seen, first, last));
  return [
    `${shown} changed on disk since this session last read it, in the lines this change touches (${first + 1}-${last + 1}); nothing was written. Change the region as it is now (below), or read the file again.`,
    "What you saw there:",
    saw,
    "What is there now:",
    excerpt(now, first, last),
    "What you wanted:",
    excerpt(wanted, wantedFirst, wantedLast),
  ].join("\n");
}

/** A refusal given before is a loop: said so, so the model stops retrying the same call. */
export function withLoopNote(message: string, times: number): string {
  return times < 2
    ? message
    : `${message}\nThis exact refusal has now been given ${times} times: retrying the same call will not change it. Read the file again and base the change on what it holds now.`;
}
