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

/**
 * Length of the whole lines both texts end with (beyond `cut`), when taking them out cannot
 * change jsdiff's answer: no line of either middle occurs among them, so no match jsdiff could
 * make there is shifted (verified against jsdiff on random texts with repeated lines); else 0.
 */
export function commonTail(oldText: string, newText: string, cut: number): number {
  const room = Math.min(oldText.length, newText.length) - cut;
  let j = 0;
  while (
    j < room &&
    oldText.charCodeAt(oldText.length - 1 - j) === newText.charCodeAt(newText.length - 1 - j)
  )
    j++;
  // the tail starts a line in both texts
  while (
    j > 0 &&
    !(oldText.charCodeAt(oldText.length - j - 1) === 10 && newText.charCodeAt(newText.length - j - 1) === 10)
  )
    j--;
  if (j === 0) return 0;
  const tail = `\n${oldText.slice(oldText.length - j)}`;
  let lines = 0;
  for (const middle of [oldText.slice(cut, oldText.length - j), newText.slice(cut, newText.length - j)]) {
    // every middle line ends with "\n" (the tail starts a line); "\n" + line is that line whole
    for (let from = 0; from < middle.length; ) {
      const end = middle.indexOf("\n", from) + 1;
      if (end === 0) return 0;
      if (++lines > MAX_MIDDLE_LINES || tail.includes(`\n${middle.slice(from, end)}`)) return 0;
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
  const n = Math.min(oldText.length, newText.length);
  let i = 0;
  while (i < n && oldText.charCodeAt(i) === newText.charCodeAt(i)) i++;
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
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const num = (n: number) => String(n).padStart(width, " ");
  const skipped = ` ${"".padStart(width, " ")} ...`;
  const out: string[] = [];
  let oldNo = 1;
  let newNo = 1;
  let firstChangedLine: number | undefined;
  let afterChange = false;
  parts.forEach((part, i) => {
    const lines = part.value.split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (part.added || part.removed) {
      firstChangedLine ??= newNo;
      for (const line of lines) {
        if (part.added) out.push(`+${num(newNo++)} ${line}`);
        else out.push(`-${num(oldNo++)} ${line}`);
      }
      afterChange = true;
      return;
    }
    const next = parts[i + 1];
    const beforeChange = next !== undefined && (next.added || next.removed);
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
