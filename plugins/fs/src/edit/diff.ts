import { diffLines } from "diff";

/**
 * jsdiff's `diffLines`, with the whole lines both texts begin with taken out first and given back
 * as one unchanged part: jsdiff itself matches the common prefix first, as one part, so the result
 * is the same, and an edit deep in a long file tokenises and compares only what follows its start.
 * (The common suffix is not taken out: jsdiff may align it differently.)
 */
export function linesDiff(oldText: string, newText: string): ReturnType<typeof diffLines> {
  const n = Math.min(oldText.length, newText.length);
  let i = 0;
  while (i < n && oldText.charCodeAt(i) === newText.charCodeAt(i)) i++;
  if (i === oldText.length && i === newText.length) return diffLines(oldText, newText);
  const cut = i === 0 ? 0 : oldText.lastIndexOf("\n", i - 1) + 1;
  if (cut === 0) return diffLines(oldText, newText);
  const prefix = oldText.slice(0, cut);
  const rest = diffLines(oldText.slice(cut), newText.slice(cut));
  let count = 0;
  for (let at = prefix.indexOf("\n"); at !== -1; at = prefix.indexOf("\n", at + 1)) count++;
  return [{ value: prefix, count, added: false, removed: false }, ...rest];
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
