import { diffLines } from "diff";
import { describe, expect, it } from "vitest";
import { commonTail, linesDiff } from "../src/edit/diff.js";

// The edit's diff skips the whole lines both texts begin with (and, when no changed line occurs
// among them, those they end with) before calling jsdiff; the parts
// must be exactly jsdiff's own on the whole texts, however lines repeat and end.
describe("linesDiff", () => {
  it.each([
    [11, 12, 3],
    [5, 30, 6],
    [77, 60, 3],
  ])(
    "gives jsdiff's own parts on random texts with repeated lines and mixed line endings (seed %i, up to %i lines, %i changes)",
    (first, most, changes) => {
      let seed = first;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return seed % n;
      };
      const words = ["a", "b", "x", "", " ", "a b", "\t"];
      const endings = ["\n", "\r\n", "\r"];
      const line = () => words[rand(words.length)]! + endings[rand(endings.length)];
      const shape = (parts: ReturnType<typeof diffLines>) =>
        parts.map((p) => [p.value, Boolean(p.added), Boolean(p.removed), p.count]);
      let compared = 0;
      let tails = 0;
      for (let k = 0; k < 20_000; k++) {
        const lines = Array.from({ length: rand(most) }, line);
        const next = [...lines];
        for (let o = 0; o <= rand(changes); o++) {
          const at = rand(next.length + 1);
          const r = rand(4);
          if (r === 0) next.splice(at, 1);
          else if (r === 1) next.splice(at, 0, line());
          else if (r === 2 && next.length) next[Math.min(at, next.length - 1)] = line();
          else next.splice(at, 0, next[rand(Math.max(next.length, 1))] ?? "a\n");
        }
        const oldText = lines.join("") + (rand(3) === 0 ? words[rand(words.length)] : "");
        const newText = next.join("") + (rand(3) === 0 ? words[rand(words.length)] : "");
        expect(shape(linesDiff(oldText, newText))).toEqual(shape(diffLines(oldText, newText)));
        compared++;
        if (commonTail(oldText, newText, 0) > 0) tails++;
      }
      expect(compared).toBe(20_000);
      // the common trailing lines were taken out in many of them
      expect(tails).toBeGreaterThan(500);
    },
  );
});
