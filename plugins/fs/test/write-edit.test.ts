import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool, createMemoryBridge, createWriteTool } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

describe("write", () => {
  it("creates parents, reports pi's text and leaves no temp files", async () => {
    const root = tempDir();
    const r = await createWriteTool({ workspaceDir: root }).execute("c", {
      path: "a/b/c.txt",
      content: "héllo",
    });
    expect(text(r)).toBe("Successfully wrote 5 bytes to a/b/c.txt");
    expect(readFileSync(path.join(root, "a/b/c.txt"), "utf8")).toBe("héllo");
    expect(readdirSync(path.join(root, "a/b"))).toEqual(["c.txt"]);
  });

  it("serialises concurrent writes to one path", async () => {
    const root = tempDir();
    const write = createWriteTool({ workspaceDir: root });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => write.execute("c", { path: "same.txt", content: `v${i}` })),
    );
    expect(readFileSync(path.join(root, "same.txt"), "utf8")).toBe("v19");
  });
});

describe("edit", () => {
  const setup = (content: string) => {
    const bridge = createMemoryBridge({ "f.txt": content });
    return {
      bridge,
      edit: createEditTool({ root: "/workspace", bridge }),
      read: () => bridge.files.get("/workspace/f.txt")!.toString(),
    };
  };

  it("applies several edits against the original with a numbered diff", async () => {
    const { edit, read } = setup("alpha\nbeta\ngamma\ndelta\n");
    const r = await edit.execute("c", {
      path: "f.txt",
      edits: [
        { oldText: "alpha", newText: "ALPHA" },
        { oldText: "delta", newText: "DELTA" },
      ],
    });
    expect(text(r)).toBe("Successfully replaced 2 block(s) in f.txt.");
    expect(read()).toBe("ALPHA\nbeta\ngamma\nDELTA\n");
    expect(r.details).toEqual({
      diff: "-1 alpha\n+1 ALPHA\n 2 beta\n 3 gamma\n-4 delta\n+4 DELTA",
      firstChangedLine: 1,
    });
  });

  it("gives pi's exact errors and changes nothing", async () => {
    const { edit, read } = setup("x\nx\ny\n");
    await expect(edit.execute("c", { path: "f.txt", oldText: "x", newText: "z" })).rejects.toThrow(
      "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
    );
    await expect(edit.execute("c", { path: "f.txt", oldText: "nope", newText: "z" })).rejects.toThrow(
      "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.\nCurrent file contents:\nx\nx\ny\n",
    );
    await expect(
      edit.execute("c", {
        path: "f.txt",
        edits: [
          { oldText: "y", newText: "a" },
          { oldText: "\ny", newText: "b" },
        ],
      }),
    ).rejects.toThrow(
      "edits[1] and edits[0] overlap in f.txt. Merge them into one edit or target disjoint regions.",
    );
    await expect(edit.execute("c", { path: "missing.txt", oldText: "y", newText: "q" })).rejects.toThrow(
      "File not found: missing.txt.",
    );
    await expect(edit.execute("c", { path: "f.txt" })).rejects.toThrow(
      "Missing required parameter(s): edits (received: path). Supply correct parameters before retrying.",
    );
    expect(read()).toBe("x\nx\ny\n");
  });

  it("preserves BOM and CRLF", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "w.txt"), "\ufeffone\r\ntwo\r\n");
    await createEditTool({ workspaceDir: root }).execute("c", {
      path: "w.txt",
      oldText: "two\n",
      newText: "TWO\nthree\n",
    });
    expect(readFileSync(path.join(root, "w.txt"), "utf8")).toBe("\ufeffone\r\nTWO\r\nthree\r\n");
  });

  it("fuzzy-matches but rewrites only the matched region (upstream pi bug #5899)", async () => {
    const original = "keep “smart” quotes   \nconst a = “x”;  \nother line with trailing   \n";
    const { edit, read } = setup(original);
    await edit.execute("c", { path: "f.txt", oldText: 'const a = "x";', newText: 'const a = "y";' });
    expect(read()).toBe('keep “smart” quotes   \nconst a = "y";  \nother line with trailing   \n');
  });

  it("accepts the Claude-Code aliases by default, and not when turned off", async () => {
    const { bridge, edit, read } = setup("hello\n");
    await edit.execute("c", { file_path: "f.txt", old_string: "hello", new_string: "bye" });
    expect(read()).toBe("bye\n");
    const strict = createEditTool({ root: "/workspace", bridge }, { claudeCodeAliases: false });
    expect(JSON.stringify(strict.parameters)).not.toContain("file_path");
  });
  it("an edit that changes nothing is a plain answer, not an error", async () => {
    const { edit, read } = setup("x\ny\n");
    const r = await edit.execute("c", { path: "f.txt", oldText: "y", newText: "y" });
    expect(r.isError).toBeUndefined();
    expect(text(r)).toBe(
      "No changes made to f.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
    );
    expect(r.details).toEqual({ diff: "", changed: false });
    expect(read()).toBe("x\ny\n");
  });

  it("a failed edit names the closest lines with a hint and shows the current contents", async () => {
    // the tab-indented line matches, the next one does not: refused, and the hint names the indentation
    const { edit } = setup("function f() {\n\treturn compute(a, b);\n\tlog();\n}\n");
    const error = await edit
      .execute("c", { path: "f.txt", oldText: "    return compute(a, b);\n}", newText: "    return 0;" })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe(
      [
        "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.",
        "Closest matching lines:",
        "  near line 2 (100% match):",
        '    expected: "    return compute(a, b);"',
        '    found:    "\\treturn compute(a, b);"',
        "               ^^^^^^^^^^^^",
        "    hint: indentation differs (expected 4 spaces, found 1 tab)",
        "Current file contents:",
        "function f() {",
        "\treturn compute(a, b);",
        "\tlog();",
        "}",
        "",
      ].join("\n"),
    );
    const long = setup(`${"a".repeat(900)}\n`);
    const cut = await long.edit
      .execute("c", { path: "f.txt", oldText: "zzz", newText: "q" })
      .catch((e: Error) => e);
    expect(
      (cut as Error).message.endsWith(`Current file contents:\n${"a".repeat(800)}\n... (truncated)`),
    ).toBe(true);
  });

  it("matches NFC text against an NFD file (and the reverse), rewriting only that region", async () => {
    const nfd = "caf\u0065\u0301 au lait\nna\u0131\u0308ve\n";
    const { edit, read } = setup(nfd);
    await edit.execute("c", { path: "f.txt", oldText: "café au lait", newText: "thé" });
    expect(read()).toBe("thé\nna\u0131\u0308ve\n");
    const nfc = setup("résumé\nother\n");
    await nfc.edit.execute("c", { path: "f.txt", oldText: "re\u0301sume\u0301", newText: "cv" });
    expect(nfc.read()).toBe("cv\nother\n");
  });

  it("says a directory is a directory", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "d"));
    await expect(
      createEditTool({ workspaceDir: root }).execute("c", { path: "d", oldText: "a", newText: "b" }),
    ).rejects.toThrow("d is a directory; edit changes one file (use ls to list it).");
  });

  it("renders a big file's diff with jsdiff: only the changed region, never a whole-file rewrite", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`);
    const { edit } = setup(`${lines.join("\n")}\n`);
    const r = await edit.execute("c", {
      path: "f.txt",
      edits: [
        { oldText: "line 10000\n", newText: "changed\n" },
        { oldText: "line 19999\n", newText: "" },
      ],
    });
    expect(r.details).toEqual({
      diff: [
        "       ...",
        "  9996 line 9996",
        "  9997 line 9997",
        "  9998 line 9998",
        "  9999 line 9999",
        "-10000 line 10000",
        "+10000 changed",
        " 10001 line 10001",
        " 10002 line 10002",
        " 10003 line 10003",
        " 10004 line 10004",
        "       ...",
        " 19995 line 19995",
        " 19996 line 19996",
        " 19997 line 19997",
        " 19998 line 19998",
        "-19999 line 19999",
        " 20000 line 20000",
      ].join("\n"),
      firstChangedLine: 10000,
    });
  });
});
