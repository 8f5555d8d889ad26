import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../src/tools/edit.js";
import { tempDir } from "./helpers.js";

/** A seeded generator, so a failing case can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

type Line = { depth: number; text: string };

/** A block-structured body (every line after the first indented): depths move by at most one per line. */
function program(rand: (n: number) => number, count: number): Line[] {
  const lines: Line[] = [];
  let depth = 0;
  for (let i = 0; i < count; i++) {
    depth = i === 0 ? 0 : Math.max(1, Math.min(depth + rand(3) - 1, 4));
    lines.push({ depth, text: `stmt_${i}(${rand(100)});` });
  }
  return lines;
}

const render = (lines: Line[], indent: (d: number) => string) =>
  lines.map((l) => indent(l.depth) + l.text).join("\n");

const STYLES = [
  {
    name: "tabs in the file, spaces from the model",
    file: (d: number) => "\t".repeat(d),
    model: (d: number) => "    ".repeat(d),
  },
  {
    name: "4 spaces in the file, tabs from the model",
    file: (d: number) => "    ".repeat(d),
    model: (d: number) => "\t".repeat(d),
  },
  {
    name: "2 spaces in the file, tabs from the model",
    file: (d: number) => "  ".repeat(d),
    model: (d: number) => "\t".repeat(d),
  },
];

describe("drift that lands: tab/space swaps, generated", () => {
  it.each(STYLES)(
    "$name: lands in the file's indentation, or refuses when ambiguous; never a wrong place",
    async (style) => {
      const root = tempDir();
      const file = path.join(root, "f.txt");
      let landed = 0;
      let refused = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const rand = rng(seed);
        const lines = program(rand, 12);
        const duplicate = seed % 5 === 0;
        const at = 2 + rand(6);
        const size = 1 + rand(3);
        if (duplicate) lines.splice(10, 0, ...lines.slice(at, at + size).map((l) => ({ ...l })));
        const block = lines.slice(at, at + size);
        // the model changes one line and adds one nested under it
        const changed = block.map((l, k) => (k === 0 ? { ...l, text: l.text.replace("stmt", "STMT") } : l));
        const added = { depth: block[0]!.depth + 1, text: "added();" };
        const newBlock = [changed[0]!, added, ...changed.slice(1)];
        const original = `${render(lines, style.file)}\n`;
        writeFileSync(file, original);
        const edit = createEditTool({ workspaceDir: root });
        const outcome = await edit
          .execute("c", {
            path: "f.txt",
            oldText: render(block, style.model),
            newText: render(newBlock, style.model),
          })
          .then(
            () => "landed",
            (e: Error) => e.message,
          );
        if (duplicate) {
          expect(outcome).toMatch(/^Found 2 (places|occurrences)/);
          expect(outcome).toMatch(new RegExp(`candidate 1 at lines? ${at + 1}\\b`));
          expect(readFileSync(file, "utf8")).toBe(original);
          refused++;
        } else {
          expect(outcome).toBe("landed");
          const want = [...lines];
          want.splice(at, size, ...newBlock);
          expect(readFileSync(file, "utf8")).toBe(`${render(want, style.file)}\n`);
          landed++;
        }
      }
      expect([landed, refused]).toEqual([32, 8]);
    },
  );

  it("says what drifted", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "f.go"), "func f() {\n\tif ok {\n\t\treturn\n\t}\n}\n");
    const r = await createEditTool({ workspaceDir: root }).execute("c", {
      path: "f.go",
      oldText: "    if ok {\n        return\n    }",
      newText: "    if ok {\n        log()\n        return\n    }",
    });
    expect(readFileSync(path.join(root, "f.go"), "utf8")).toBe(
      "func f() {\n\tif ok {\n\t\tlog()\n\t\treturn\n\t}\n}\n",
    );
    expect(r.content[0]).toMatchObject({
      text: "Successfully replaced 1 block(s) in f.go.\nApplied with tab/space drift: the file indents the lines of oldText with tabs (oldText has spaces); newText was re-indented in the file's characters.",
    });
  });
});

describe("drift that lands: normalised matches follow the file's convention", () => {
  const run = async (content: string, oldText: string, newText: string) => {
    const root = tempDir();
    writeFileSync(path.join(root, "f.txt"), content);
    await createEditTool({ workspaceDir: root }).execute("c", { path: "f.txt", oldText, newText });
    return readFileSync(path.join(root, "f.txt"), "utf8");
  };

  it("curly quotes and dashes typed by the model land as the file's plain ones", async () => {
    expect(await run('say("hello") - 1;\n', "say(“hello”) – 1;", "say(“goodbye”) – 2;")).toBe(
      'say("goodbye") - 2;\n',
    );
    expect(await run("it's fine\n", "it’s fine", "it’s great")).toBe("it's great\n");
  });

  it("a file that itself uses typographic quotes keeps what the model wrote", async () => {
    expect(await run("He said “hi”.\n", "He said “hi”.", "He said “bye”.")).toBe("He said “bye”.\n");
  });

  it("aligned columns stay aligned when the model collapsed the spaces", async () => {
    const content = "const a     = 1;\nconst bb    = 2;\nconst ccc   = 3;\n";
    expect(await run(content, "const bb = 2;", "const bb = 20;")).toBe(
      "const a     = 1;\nconst bb    = 20;\nconst ccc   = 3;\n",
    );
    expect(await run(content, "const a = 1;\nconst bb = 2;", "const a = 1;\nconst bb = 2; // two")).toBe(
      "const a     = 1;\nconst bb    = 2; // two\nconst ccc   = 3;\n",
    );
  });
});

describe("drift that lands: apply_patch", () => {
  it("lines a patch adds with spaces land with the tabs of the file it matched", async () => {
    const { createApplyPatchTool } = await import("../src/tools/apply-patch.js");
    const root = tempDir();
    writeFileSync(path.join(root, "m.go"), "func f() {\n\tif ok {\n\t\treturn\n\t}\n}\n");
    await createApplyPatchTool({ workspaceDir: root }).execute("c", {
      input: [
        "*** Begin Patch",
        "*** Update File: m.go",
        "@@",
        "     if ok {",
        "+        log()",
        "         return",
        "*** End Patch",
      ].join("\n"),
    });
    expect(readFileSync(path.join(root, "m.go"), "utf8")).toBe(
      "func f() {\n\tif ok {\n\t\tlog()\n\t\treturn\n\t}\n}\n",
    );
  });
});
