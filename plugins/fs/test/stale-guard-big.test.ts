// The stale guard on files over 1 MB, which it keeps as a digest of their lines: another process
// changes the file between the session's calls; real files, CRLF included.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ToolContext } from "@clawtools/core";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "../src/tools/apply-patch.js";
import { createEditTool } from "../src/tools/edit.js";
import { createReadTool } from "../src/tools/read.js";
import { createWriteTool } from "../src/tools/write.js";
import { tempDir } from "./helpers.js";

function session(root: string) {
  const ctx: ToolContext = { workspaceDir: root };
  return {
    read: (p: string) => createReadTool(ctx).execute("c", { path: p }),
    edit: (p: string, oldText: string, newText: string) =>
      createEditTool(ctx).execute("c", { path: p, oldText, newText }),
    write: (p: string, content: string) => createWriteTool(ctx).execute("c", { path: p, content }),
    patch: (input: string) => createApplyPatchTool(ctx).execute("c", { input }),
  };
}

const message = (p: Promise<unknown>) =>
  p.then(
    () => "applied",
    (e: Error) => e.message,
  );

/** 40,000 lines, about 2 MB: over the size kept whole. */
const big = (eol: string) =>
  `${Array.from({ length: 40_000 }, (_, i) => `const value${i} = ${i}; // ${"padding ".repeat(4)}`).join(eol)}${eol}`;

/** Another process rewrites one line in place. */
const sedLine = (file: string, line: number, to: string) =>
  execFileSync("sed", ["-i", `${line}s/.*/${to}/`, file]);

describe("the stale guard on a file over 1 MB", () => {
  for (const eol of ["\n", "\r\n"]) {
    const name = eol === "\n" ? "LF" : "CRLF";
    it(`(${name}) applies an edit away from a line another process changed and refuses one on it`, async () => {
      const root = tempDir();
      const file = path.join(root, "big.js");
      writeFileSync(file, big(eol));
      const s = session(root);
      await s.read("big.js");
      // far from the edit: applies, and the other process's line stays
      sedLine(file, 10, `const value9 = "formatted";${eol === "\r\n" ? "\\r" : ""}`);
      expect(await message(s.edit("big.js", "const value30000 = 30000;", "const value30000 = 0;"))).toBe(
        "applied",
      );
      const lines = readFileSync(file, "utf8").split(eol);
      expect(lines[9]).toBe('const value9 = "formatted";');
      expect(lines[30000]).toContain("const value30000 = 0;");
      // on the edited line: refused, naming the lines, nothing written
      sedLine(file, 20001, `const value20000 = "theirs";${eol === "\r\n" ? "\\r" : ""}`);
      const before = readFileSync(file);
      const refused = await message(
        s.edit("big.js", 'const value20000 = "theirs";', 'const value20000 = "mine";'),
      );
      expect(refused).toMatch(
        /^big\.js changed on disk since this session last read it, in the lines this change touches \(20001-20001\)/,
      );
      expect(refused).toContain("not kept: the file is over 1 MB");
      expect(refused).toContain('20001 | const value20000 = "theirs";');
      expect(readFileSync(file).equals(before)).toBe(true);
    });
  }

  it("write over a big file changed since it was read is refused; the session's own edit refreshes what it saw", async () => {
    const root = tempDir();
    const file = path.join(root, "big.txt");
    writeFileSync(file, big("\n"));
    const s = session(root);
    await s.read("big.txt");
    expect(await message(s.edit("big.txt", "const value5 = 5;", "const value5 = 55;"))).toBe("applied");
    // its own edit is what it saw: an edit right after applies
    expect(await message(s.edit("big.txt", "const value55 ", "const value55b "))).not.toMatch(
      /changed on disk/,
    );
    sedLine(file, 39000, "changed by another process");
    const refused = await message(s.write("big.txt", "replaced\n"));
    expect(refused).toMatch(
      /^big\.txt changed on disk since this session last read it; writing would discard those changes/,
    );
    expect(readFileSync(file, "utf8").split("\n")[38999]).toBe("changed by another process");
  });

  it("apply_patch on a big file applies away from a changed line and refuses on it", async () => {
    const root = tempDir();
    const file = path.join(root, "big.js");
    writeFileSync(file, big("\n"));
    const s = session(root);
    await s.read("big.js");
    sedLine(file, 100, "changed by another process");
    const patch = (from: string, to: string) =>
      `*** Begin Patch\n*** Update File: big.js\n@@\n-${from}\n+${to}\n*** End Patch`;
    const line = (i: number) => `const value${i} = ${i}; // ${"padding ".repeat(4)}`;
    expect(await message(s.patch(patch(line(5000), "patched")))).toBe("applied");
    // the patch's own write is what the session saw since; another process changes line 200
    sedLine(file, 200, "changed again by another process");
    const refused = await message(s.patch(patch("changed again by another process", "mine")));
    expect(refused).toMatch(
      /changed on disk since this session last read it, in the lines this change touches \(200-200\)/,
    );
    expect(readFileSync(file, "utf8").split("\n")[199]).toBe("changed again by another process");
    expect(readFileSync(file, "utf8").split("\n")[99]).toBe("changed by another process");
  });
});
