import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { outcome as message, session, tempDir } from "./helpers.js";

/** A formatter run by another process: rewrites the file in place with a sed script. */
const format = (file: string, script: string) => execFileSync("sed", ["-i", "-E", script, file]);

const SOURCE = `${Array.from({ length: 30 }, (_, i) => `let   v${i}   =   ${i};`).join("\n")}\n`;

describe("the stale guard judges a change by the region it touches", () => {
  it("applies an edit away from lines a formatter (another process) changed, keeping the formatter's work", async () => {
    const root = tempDir();
    const file = path.join(root, "a.js");
    writeFileSync(file, SOURCE);
    const s = session(root);
    await s.read("a.js");
    for (let round = 0; round < 5; round++) {
      // churn: another process reformats the top of the file between the session's calls
      format(file, `${round + 1}s/ +/ /g`);
      expect(
        await message(s.edit("a.js", `let   v${20 + round}   =   ${20 + round};`, `let v${20 + round} = 0;`)),
      ).toBe("applied");
    }
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "let v0 = 0;",
      "let v1 = 1;",
      "let v2 = 2;",
      "let v3 = 3;",
      "let v4 = 4;",
    ]);
    expect(lines.slice(20, 25)).toEqual([
      "let v20 = 0;",
      "let v21 = 0;",
      "let v22 = 0;",
      "let v23 = 0;",
      "let v24 = 0;",
    ]);
    expect(lines[5]).toBe("let   v5   =   5;");
  });

  it("refuses an edit whose region changed, with the three-way preview; a repeat is reported as a loop", async () => {
    const root = tempDir();
    const file = path.join(root, "a.js");
    writeFileSync(file, SOURCE);
    const s = session(root);
    await s.read("a.js");
    format(file, "3s/ +/ /g"); // line 3 is now `let v2 = 2;`
    const before = readFileSync(file, "utf8");
    // spacing drift would land this on the reformatted line: the guard stops it
    const first = await message(s.edit("a.js", "let   v2   =   2;", "let   v2   =   200;"));
    expect(first).toBe(
      [
        "a.js changed on disk since this session last read it, in the lines this change touches (3-3); nothing was written. Change the region as it is now (below), or read the file again.",
        "What you saw there:",
        "  3 | let   v2   =   2;",
        "What is there now:",
        "  3 | let v2 = 2;",
        "What you wanted:",
        "  3 | let v2 = 200;",
      ].join("\n"),
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    const second = await message(s.edit("a.js", "let   v2   =   2;", "let   v2   =   200;"));
    expect(second).toBe(
      `${first}\nThis exact refusal has now been given 2 times: retrying the same call will not change it. Read the file again and base the change on what it holds now.`,
    );
    // after a read the same region is the session's again
    await s.read("a.js");
    expect(await message(s.edit("a.js", "let v2 = 2;", "let v2 = 200;"))).toBe("applied");
  });

  it("the session's own writes refresh what it has seen", async () => {
    const root = tempDir();
    const file = path.join(root, "a.js");
    writeFileSync(file, SOURCE);
    const s = session(root);
    await s.read("a.js");
    expect(await message(s.edit("a.js", "let   v7   =   7;", "let v7 = 7;"))).toBe("applied");
    expect(await message(s.edit("a.js", "let v7 = 7;", "let v7 = 77;"))).toBe("applied");
    expect(await message(s.write("a.js", "fresh\n"))).toBe("applied");
    expect(await message(s.edit("a.js", "fresh", "fresher"))).toBe("applied");
    expect(readFileSync(file, "utf8")).toBe("fresher\n");
  });

  it("write over a file changed since it was read is refused unless the call says overwrite; a never-read file is written", async () => {
    const root = tempDir();
    const file = path.join(root, "w.txt");
    writeFileSync(file, "one\n");
    const s = session(root);
    await s.read("w.txt");
    writeFileSync(file, "changed by someone else\n");
    expect(await message(s.write("w.txt", "mine\n"))).toBe(
      "w.txt changed on disk since this session last read it; writing would discard those changes. Read it again and write from what it holds now, or pass overwrite: true to replace it.",
    );
    expect(readFileSync(file, "utf8")).toBe("changed by someone else\n");
    expect(await message(s.write("w.txt", "mine\n", true))).toBe("applied");
    expect(readFileSync(file, "utf8")).toBe("mine\n");
    writeFileSync(path.join(root, "never.txt"), "old\n");
    expect(await message(s.write("never.txt", "new\n"))).toBe("applied");
    expect(readFileSync(path.join(root, "never.txt"), "utf8")).toBe("new\n");
  });

  it("apply_patch applies away from changed lines and refuses on them", async () => {
    const root = tempDir();
    const file = path.join(root, "a.js");
    writeFileSync(file, SOURCE);
    const s = session(root);
    await s.read("a.js");
    format(file, "1,2s/^/  /");
    const patch = (from: string, to: string) =>
      ["*** Begin Patch", "*** Update File: a.js", "@@", `-${from}`, `+${to}`, "*** End Patch"].join("\n");
    expect(await message(s.patch(patch("let   v10   =   10;", "let v10 = 10; // ten")))).toBe("applied");
    expect(readFileSync(file, "utf8").split("\n").slice(0, 2)).toEqual([
      "  let   v0   =   0;",
      "  let   v1   =   1;",
    ]);
    // the patch's own write refreshed what the session saw: the formatter runs again
    format(file, "2s/^/  /");
    const refused = await message(s.patch(patch("let   v1   =   1;", "let v1 = 11;")));
    expect(refused).toMatch(
      /^a\.js changed on disk since this session last read it, in the lines this change touches \(2-2\)/,
    );
    expect(refused).toContain(
      "What you saw there:\n  2 |   let   v1   =   1;\nWhat is there now:\n  2 |     let   v1   =   1;",
    );
    expect(readFileSync(file, "utf8").split("\n")[1]).toBe("    let   v1   =   1;");
  });
});
