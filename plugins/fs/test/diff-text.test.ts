import { diffLines } from "diff";
import { describe, expect, it } from "vitest";
import { generateDiffString } from "../src/edit/diff.js";

/** The edit diff as it was first written: jsdiff on the whole texts, every part split whole. */
function reference(oldText: string, newText: string, context = 4) {
  const parts = diffLines(oldText, newText);
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
      for (const line of lines)
        out.push(part.added ? `+${num(newNo++)} ${line}` : `-${num(oldNo++)} ${line}`);
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
    const head = afterChange ? lines.slice(0, context) : [];
    const tail = beforeChange ? lines.slice(Math.max(head.length, lines.length - context)) : [];
    const show = (text: string) => {
      out.push(` ${num(oldNo++)} ${text}`);
      newNo++;
    };
    if (afterChange && beforeChange && lines.length <= context * 2) lines.forEach(show);
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

// the edit's diff text takes only the context lines out of long unchanged parts; it must read
// exactly as the whole-split formatter on jsdiff's own parts
describe("generateDiffString", () => {
  it.each([
    [3, 80, 2],
    [19, 150, 4],
  ])(
    "reads as the whole-split formatter on jsdiff's parts (seed %i, up to %i lines)",
    (first, most, changes) => {
      let seed = first;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return seed % n;
      };
      // long lines too, so the common ends are compared a stride of characters at a time
      const words = ["a", "b", "x", "", " ", "a b", "\t", "line\r", "lorem ipsum ".repeat(6)];
      const line = () => `${words[rand(words.length)]!}${rand(5) === 0 ? rand(100) : ""}\n`;
      let long = 0;
      for (let k = 0; k < 3000; k++) {
        const lines = Array.from({ length: rand(most) }, line);
        const next = [...lines];
        for (let o = 0; o <= rand(changes); o++) {
          const at = rand(next.length + 1);
          const r = rand(3);
          if (r === 0) next.splice(at, 1);
          else if (r === 1) next.splice(at, 0, line());
          else if (next.length) next[Math.min(at, next.length - 1)] = line();
        }
        const oldText = lines.join("") + (rand(3) === 0 ? "tail" : "");
        const newText = next.join("") + (rand(3) === 0 ? "tail" : "");
        const context = 1 + rand(4);
        expect(generateDiffString(oldText, newText, context)).toEqual(reference(oldText, newText, context));
        if (oldText.length > 512) long++;
      }
      expect(long).toBeGreaterThan(200);
    },
  );
});
