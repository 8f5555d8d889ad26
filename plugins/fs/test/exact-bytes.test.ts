import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "../src/tools/apply-patch.js";
import { createEditTool } from "../src/tools/edit.js";
import { tempDir } from "./helpers.js";

type Eol = "\r\n" | "\n" | "\r";
const LINES = ["alpha", "\tbeta  x", "gamma é", "delta", "omega"];
const STYLES: Record<string, Eol[]> = {
  lf: ["\n", "\n", "\n", "\n", "\n"],
  crlf: ["\r\n", "\r\n", "\r\n", "\r\n", "\r\n"],
  cr: ["\r", "\r", "\r", "\r", "\r"],
  mixed: ["\r\n", "\n", "\r\n", "\n", "\r\n"],
};

/** A file from its lines and the ending of each (the last one dropped without a final newline). */
function build(lines: string[], eols: Eol[], bom: boolean, finalNewline: boolean): string {
  const body = lines.map((l, i) => l + (i < lines.length - 1 || finalNewline ? eols[i]! : "")).join("");
  return (bom ? "\ufeff" : "") + body;
}

/** gamma's line replaced and a line inserted after it: both take gamma's own ending. */
function expected(eols: Eol[], bom: boolean, finalNewline: boolean): string {
  const lines = ["alpha", "\tbeta  x", "GAMMA é", "inserted", "delta", "omega"];
  const e = [eols[0]!, eols[1]!, eols[2]!, eols[2]!, eols[3]!, eols[4]!];
  return build(lines, e, bom, finalNewline);
}

const cases = Object.entries(STYLES).flatMap(([style, eols]) =>
  [true, false].flatMap((bom) => [true, false].map((finalNewline) => ({ style, eols, bom, finalNewline }))),
);

describe("exact bytes: every line keeps its ending; new lines take their neighbours'", () => {
  it.each(cases)(
    "edit on $style (bom $bom, final newline $finalNewline)",
    async ({ eols, bom, finalNewline }) => {
      const root = tempDir();
      const file = path.join(root, "f.txt");
      writeFileSync(file, build(LINES, eols, bom, finalNewline));
      await createEditTool({ workspaceDir: root }).execute("c", {
        path: "f.txt",
        oldText: "gamma é",
        newText: "GAMMA é\ninserted",
      });
      expect(readFileSync(file, "utf8")).toBe(expected(eols, bom, finalNewline));
    },
  );

  it.each(cases)(
    "apply_patch on $style (bom $bom, final newline $finalNewline)",
    async ({ eols, bom, finalNewline }) => {
      const root = tempDir();
      const file = path.join(root, "f.txt");
      writeFileSync(file, build(LINES, eols, bom, finalNewline));
      const input = [
        "*** Begin Patch",
        "*** Update File: f.txt",
        "@@",
        " \tbeta  x",
        "-gamma é",
        "+GAMMA é",
        "+inserted",
        " delta",
        "*** End Patch",
      ].join("\n");
      await createApplyPatchTool({ workspaceDir: root }).execute("c", { input });
      expect(readFileSync(file, "utf8")).toBe(expected(eols, bom, finalNewline));
    },
  );

  it("an edit of the last line of a mixed file without a final newline adds none, and keeps the rest", async () => {
    const root = tempDir();
    const file = path.join(root, "f.txt");
    writeFileSync(file, "a\r\nb\nc");
    await createEditTool({ workspaceDir: root }).execute("c", {
      path: "f.txt",
      oldText: "c",
      newText: "c\nd",
    });
    expect(readFileSync(file, "utf8")).toBe("a\r\nb\nc\nd");
  });

  it("NFD text in the file is matched by NFC oldText and every other byte is kept", async () => {
    const root = tempDir();
    const file = path.join(root, "f.txt");
    const nfd = "caf\u0065\u0301";
    writeFileSync(file, `x = "${nfd}";\r\ny = 1;\r\n`);
    await createEditTool({ workspaceDir: root }).execute("c", {
      path: "f.txt",
      oldText: 'x = "café";\ny = 1;',
      newText: 'x = "café";\ny = 2;',
    });
    expect(readFileSync(file, "utf8")).toBe(`x = "café";\r\ny = 2;\r\n`);
  });

  it("a 300,000-character line and a 4 MB CRLF file with tabs round-trip byte for byte", async () => {
    const root = tempDir();
    const file = path.join(root, "big.txt");
    const long = "\t".repeat(3) + "x".repeat(300_000);
    const rows = Array.from({ length: 60_000 }, (_, i) => `\trow ${i} ${"·".repeat(20)}`);
    rows[123] = long;
    writeFileSync(file, `${rows.join("\r\n")}\r\n`);
    await createEditTool({ workspaceDir: root }).execute("c", {
      path: "big.txt",
      oldText: "\trow 40000 ",
      newText: "\tROW 40000 ",
    });
    const want = [...rows];
    want[40000] = want[40000]!.replace("row", "ROW");
    expect(readFileSync(file).equals(Buffer.from(`${want.join("\r\n")}\r\n`))).toBe(true);
    await createApplyPatchTool({ workspaceDir: root }).execute("c", {
      input: ["*** Begin Patch", "*** Update File: big.txt", `-${long}`, `+${long}y`, "*** End Patch"].join(
        "\n",
      ),
    });
    want[123] = `${long}y`;
    expect(readFileSync(file).equals(Buffer.from(`${want.join("\r\n")}\r\n`))).toBe(true);
  });

  it("an empty patch is an error, as in Codex and OpenClaw, and changes nothing", async () => {
    const root = tempDir();
    await expect(
      createApplyPatchTool({ workspaceDir: root }).execute("c", { input: "*** Begin Patch\n*** End Patch" }),
    ).rejects.toThrow(/^No files were modified\.$/);
  });
});
