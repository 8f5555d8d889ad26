import { diffLines } from "diff";

type Part = ReturnType<typeof diffLines>[number];

/** Middles with more lines than this are diffed with the common trailing lines left in. */
const MAX_MIDDLE_LINES = 64;

/** Lines in `text` as jsdiff counts them (the last one may lack its newline). */
function lineCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") || text === "" ? count : count + 1;
}

/** Characters compared at a time by slices (native comparisons), before one by one. */
const STRIDE = 256;

/** Length of the common prefix of `a` and `b`. */
function samePrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + STRIDE <= n && a.slice(i, i + STRIDE) === b.slice(i, i + STRIDE)) i += STRIDE;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix of `a` and `b`, at most `room`. */
function sameSuffix(a: string, b: string, room: number): number {
  let j = 0;
  while (
    j + STRIDE <= room &&
    a.slice(a.length - j - STRIDE, a.length - j) === b.slice(b.length - j - STRIDE, b.length - j)
  )
    j += STRIDE;
  while (j < room && a.charCodeAt(a.length - 1 - j) === b.charCodeAt(b.length - 1 - j)) j++;
  return j;
}

/**
 * Length of the whole lines both texts end with (beyond `cut`), when taking them out cannot
 * change jsdiff's answer: no line of either middle occurs among them, so no match jsdiff could
 * make there is shifted (verified against jsdiff on random texts with repeated lines); else 0.
 */
export function commonTail(oldText: string, newText: string, cut: number): number {
  let j = sameSuffix(oldText, newText, Math.min(oldText.length, newText.length) - cut);
  // the tail starts a line in both texts
  while (
    j > 0 &&
    !(oldText.charCodeAt(oldText.length - j - 1) === 10 && newText.charCodeAt(newText.length - j - 1) === 10)
  )
    j--;
  if (j === 0) return 0;
  // the tail with the newline before it (there is one: the tail starts a line)
  const tailFrom = oldText.length - j - 1;
  let lines = 0;
  for (const middle of [oldText.slice(cut, oldText.length - j), newText.slice(cut, newText.length - j)]) {
    // every middle line ends with "\n" (the tail starts a line); "\n" + line is that line whole
    for (let from = 0; from < middle.length; ) {
      const end = middle.indexOf("\n", from) + 1;
      if (end === 0) return 0;
      if (++lines > MAX_MIDDLE_LINES || oldText.indexOf(`\n${middle.slice(from, end)}`, tailFrom) !== -1)
        return 0;
      from = end;
    }
  }
  return j;
}

/**
 * jsdiff's `diffLines`, with the whole lines both texts begin with taken out first and given back
 * as one unchanged part: jsdiff itself matches the common prefix first, as one part, so the result
 * is the same, and an edit deep in a long file tokenises and compares only what follows its start.
 * The whole lines both end with are taken out too when none of the changed lines occurs among
 * them (`commonTail`), so an edit in a long file compares only its own lines.
 */
export function linesDiff(oldText: string, newText: string): Part[] {
  const i = samePrefix(oldText, newText);
  if (i === oldText.length && i === newText.length) return diffLines(oldText, newText);
  const cut = i === 0 ? 0 : oldText.lastIndexOf("\n", i - 1) + 1;
  const tail = commonTail(oldText, newText, cut);
  const parts =
    cut === 0 && tail === 0
      ? diffLines(oldText, newText)
      : diffLines(oldText.slice(cut, oldText.length - tail), newText.slice(cut, newText.length - tail));
  if (tail > 0) {
    const value = oldText.slice(oldText.length - tail);
    const last = parts.at(-1);
    // one unchanged part, as jsdiff gives it, when the middle itself ends unchanged
    if (last && !last.added && !last.removed)
      parts[parts.length - 1] = {
        ...last,
        value: last.value + value,
        count: (last.count ?? 0) + lineCount(value),
      };
    else parts.push({ value, count: lineCount(value), added: false, removed: false });
  }
  if (cut === 0) return parts;
  const prefix = oldText.slice(0, cut);
  return [{ value: prefix, count: lineCount(prefix), added: false, removed: false }, ...parts];
}

/** The first `k` lines of `text` (which has more than `k`), without their endings. */
function firstLines(text: string, k: number): string[] {
  const out: string[] = [];
  for (let from = 0; out.length < k; ) {
    const end = text.indexOf("\n", from);
    out.push(text.slice(from, end));
    from = end + 1;
  }
  return out;
}

/** The last `k` lines of `text` (which has more than `k`), as `split("\n")` without a last empty one gives them. */
function lastLines(text: string, k: number): string[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const out: string[] = [];
  let end = body.length;
  while (out.length < k) {
    const start = body.lastIndexOf("\n", end - 1) + 1;
    out.unshift(body.slice(start, end));
    end = start - 1;
  }
  return out;
}

/**
 * pi's edit diff, computed with jsdiff (`diffLines`, as pi does): `-N text` for removed lines
 * (old numbering), `+N text` for added lines (new numbering), ` N text` for up to `context`
 * unchanged lines on each side of a change, and a padded `...` where unchanged lines are
 * skipped. `firstChangedLine` is the new-file line of the first change.
 */
export function generateDiffString(
  oldText: string,
  newText: string,
  context = 4,
): { diff: string; firstChangedLine?: number } {
  const parts = linesDiff(oldText, newText);
  // the widest line number: what `split("\n")` would count, from the parts' line counts
  let [oldLines, newLines] = [0, 0];
  for (const part of parts) {
    const count = part.count ?? lineCount(part.value);
    if (!part.added) oldLines += count;
    if (!part.removed) newLines += count;
  }
  const ends = (text: string) => (text === "" || text.endsWith("\n") ? 1 : 0);
  const width = String(Math.max(oldLines + ends(oldText), newLines + ends(newText))).length;
  const num = (n: number) => String(n).padStart(width, " ");
  const skipped = ` ${"".padStart(width, " ")} ...`;
  const out: string[] = [];
  let oldNo = 1;
  let newNo = 1;
  let firstChangedLine: number | undefined;
  let afterChange = false;
  parts.forEach((part, i) => {
    const next = parts[i + 1];
    const beforeChange = next !== undefined && (next.added || next.removed);
    const changed = part.added || part.removed;
    // a long unchanged part (most of a file) is not split whole: only its count and the
    // context lines shown are taken from it
    // its lines as `split("\n")` without a last empty one gives them
    const count = changed ? 0 : (part.count ?? lineCount(part.value));
    if (count > context * 2 + 1) {
      const head = afterChange ? firstLines(part.value, context) : [];
      const tail = beforeChange ? lastLines(part.value, context) : [];
      const show = (text: string) => {
        out.push(` ${num(oldNo++)} ${text}`);
        newNo++;
      };
      head.forEach(show);
      const gap = count - head.length - tail.length;
      if (gap > 0 && (afterChange || beforeChange)) out.push(skipped);
      oldNo += gap;
      newNo += gap;
      tail.forEach(show);
      afterChange = false;
      return;
    }
    const lines = part.value.split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (changed) {
      firstChangedLine ??= newNo;
      for (const line of lines) {
        if (part.added) out.push(`+${num(newNo++)} ${line}`);
        else out.push(`-${num(oldNo++)} ${line}`);
      }
      afterChange = true;
      return;
    }
    if (!afterChange && !beforeChange) {
      oldNo += lines.length;
      newNo += lines.length;
      return;
    }
    // context after the previous change and before the next one; a long gap between two
    // changes keeps `context` lines on each side of a `...`
    const head = afterChange ? lines.slice(0, context) : [];
    const tail = beforeChange ? lines.slice(Math.max(head.length, lines.length - context)) : [];
    const shownAll = afterChange && beforeChange && lines.length <= context * 2;
    const show = (text: string) => {
      out.push(` ${num(oldNo++)} ${text}`);
      newNo++;
    };
    if (shownAll) lines.forEach(show);
    else {
      head.forEach(show);
      const gap = lines.length - head.length - tail.length;
      if (gap > 0) {
        out.push(skipped);
        oldNo += gap;
        newNo += gap;
      }
      tail.forEach(show);
    }
    afterChange = false;
  });
  return { diff: out.join("\n"), ...(firstChangedLine !== undefined ? { firstChangedLine } : {}) };
}
