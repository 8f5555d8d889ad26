import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

const patch = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");

describe("apply_patch", () => {
  it("adds, updates with @@ context, moves and deletes, with OpenClaw's summary", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "a.py"), "def f():\n    return 1\n\ndef g():\n    return 2\n");
    writeFileSync(path.join(root, "old.txt"), "bye\n");
    writeFileSync(path.join(root, "m.txt"), "one\ntwo\n");
    const r = await createApplyPatchTool({ workspaceDir: root }).execute("c", {
      input: patch(
        "*** Add File: new/hello.txt",
        "+hi",
        "+there",
        "*** Update File: a.py",
        "@@ def g():",
        "-    return 2",
        "+    return 3",
        "*** Update File: m.txt",
        "*** Move to: moved/m.txt",
        " one",
        "-two",
        "+TWO",
        "*** End of File",
        "*** Delete File: old.txt",
      ),
    });
    expect(text(r)).toBe(
      "Success. Updated the following files:\nA new/hello.txt\nM a.py\nM moved/m.txt\nD old.txt",
    );
    expect(r.details.summary).toEqual({
      added: ["new/hello.txt"],
      modified: ["a.py", "moved/m.txt"],
      deleted: ["old.txt"],
    });
    expect(readFileSync(path.join(root, "new/hello.txt"), "utf8")).toBe("hi\nthere\n");
    expect(readFileSync(path.join(root, "a.py"), "utf8")).toBe(
      "def f():\n    return 1\n\ndef g():\n    return 3\n",
    );
    expect(readFileSync(path.join(root, "moved/m.txt"), "utf8")).toBe("one\nTWO\n");
    expect(existsSync(path.join(root, "m.txt")) || existsSync(path.join(root, "old.txt"))).toBe(false);
  });

  it("matches context leniently (trailing space, unicode dashes) and accepts a heredoc wrapper", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "t.txt"), "a — b   \nc\n");
    const input = ["<<'EOF'", patch("*** Update File: t.txt", "@@", " a - b", "-c", "+C"), "EOF"].join("\n");
    await createApplyPatchTool({ workspaceDir: root }).execute("c", { input });
    expect(readFileSync(path.join(root, "t.txt"), "utf8")).toBe("a — b   \nC\n");
  });

  it("is transactional: a failing hunk leaves every file as it was", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "keep.txt"), "original\n");
    const tool = createApplyPatchTool({ workspaceDir: root });
    const bad = patch(
      "*** Add File: created.txt",
      "+new",
      "*** Update File: keep.txt",
      "-original",
      "+changed",
      "*** Update File: keep.txt",
      "@@ missing context",
      "-x",
      "+y",
    );
    await expect(tool.execute("c", { input: bad })).rejects.toThrow(
      "Failed to find context 'missing context' in keep.txt",
    );
    expect(readFileSync(path.join(root, "keep.txt"), "utf8")).toBe("original\n");
    expect(existsSync(path.join(root, "created.txt"))).toBe(false);
    await expect(
      tool.execute("c", { input: patch("*** Update File: keep.txt", "-nothere", "+x") }),
    ).rejects.toThrow("Failed to find expected lines in keep.txt:\nnothere");
  });

  it("rolls back files already written when a later write fails", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "a.txt"), "a\n");
    writeFileSync(path.join(root, "blocker"), "i am a file");
    const input = patch("*** Update File: a.txt", "-a", "+A", "*** Add File: blocker/inside.txt", "+x");
    await expect(createApplyPatchTool({ workspaceDir: root }).execute("c", { input })).rejects.toThrow();
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
  });

  it("refuses bad envelopes and paths outside the workspace", async () => {
    const root = tempDir();
    const tool = createApplyPatchTool({ workspaceDir: root });
    await expect(tool.execute("c", { input: "*** Add File: x\n+y" })).rejects.toThrow(
      "first line of the patch must be '*** Begin Patch'",
    );
    await expect(tool.execute("c", { input: patch("*** Frobnicate: x") })).rejects.toThrow(
      /is not a valid hunk header/,
    );
    await expect(tool.execute("c", { input: patch("*** Add File: ../evil.txt", "+x") })).rejects.toThrow(
      /Path escapes sandbox root/,
    );
    expect(existsSync(path.join(root, "..", "evil.txt"))).toBe(false);
    await expect(tool.execute("c", { input: patch() })).rejects.toThrow(/^No files were modified\.$/);
  });
  it("anchors a *** End of File chunk to the end of the file, never an earlier look-alike", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "f.txt"), "x\nmid\nx  \n");
    const tool = createApplyPatchTool({ workspaceDir: root });
    await tool.execute("c", { input: patch("*** Update File: f.txt", "@@", "-x", "+y", "*** End of File") });
    expect(readFileSync(path.join(root, "f.txt"), "utf8")).toBe("x\nmid\ny\n");
    writeFileSync(path.join(root, "g.txt"), "}\nfoo\n}\nbar\n");
    await expect(
      tool.execute("c", { input: patch("*** Update File: g.txt", "@@", " }", "+// end", "*** End of File") }),
    ).rejects.toThrow("Failed to find expected lines in g.txt:\n}");
    expect(readFileSync(path.join(root, "g.txt"), "utf8")).toBe("}\nfoo\n}\nbar\n");
  });

  it("refuses *** Add File over an existing file and says to use *** Update File", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "exists.txt"), "keep me\n");
    const tool = createApplyPatchTool({ workspaceDir: root });
    await expect(
      tool.execute("c", { input: patch("*** Add File: exists.txt", "+clobbered") }),
    ).rejects.toThrow(
      'Cannot create exists.txt: the file already exists. Use "*** Update File: exists.txt" to change it, or delete it earlier in the same patch.',
    );
    expect(readFileSync(path.join(root, "exists.txt"), "utf8")).toBe("keep me\n");
    writeFileSync(path.join(root, "src.txt"), "move me\n");
    await expect(
      tool.execute("c", {
        input: patch("*** Update File: src.txt", "*** Move to: exists.txt", "-move me", "+moved"),
      }),
    ).rejects.toThrow(
      "Cannot create exists.txt: the file already exists. Delete it earlier in the same patch to replace it.",
    );
    expect(readFileSync(path.join(root, "src.txt"), "utf8")).toBe("move me\n");
    // delete then add in one patch is a replacement, and allowed
    await tool.execute("c", {
      input: patch("*** Delete File: exists.txt", "*** Add File: exists.txt", "+new"),
    });
    expect(readFileSync(path.join(root, "exists.txt"), "utf8")).toBe("new\n");
  });

  it("deletes a symlink that points outside the workspace: the link goes, the target stays", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "target.txt"), "outside\n");
    symlinkSync(path.join(outside, "target.txt"), path.join(root, "link.txt"));
    symlinkSync(outside, path.join(root, "dirlink"));
    const r = await createApplyPatchTool({ workspaceDir: root }).execute("c", {
      input: patch("*** Delete File: link.txt", "*** Delete File: dirlink"),
    });
    expect(text(r)).toBe("Success. Updated the following files:\nD link.txt\nD dirlink");
    expect(readdirSync(root)).toEqual([]);
    expect(readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("outside\n");
    expect(lstatSync(outside).isDirectory()).toBe(true);
  });

  it("a rolled-back move leaves no new empty directory behind", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "a.txt"), "a\n");
    writeFileSync(path.join(root, "blocker"), "i am a file");
    mkdirSync(path.join(root, "kept"));
    const input = patch(
      "*** Update File: a.txt",
      "*** Move to: newdir/sub/a.txt",
      "-a",
      "+A",
      "*** Add File: blocker/inside.txt",
      "+x",
    );
    await expect(createApplyPatchTool({ workspaceDir: root }).execute("c", { input })).rejects.toThrow();
    expect(readdirSync(root).sort()).toEqual(["a.txt", "blocker", "kept"]);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
  });
  it("quotes at most a short prefix of oversized input in its errors", async () => {
    const root = tempDir();
    const tool = createApplyPatchTool({ workspaceDir: root });
    const huge = "y".repeat(1024 * 1024);
    await expect(tool.execute("c", { input: patch(`*** Add File: ${huge}`, "+x") })).rejects.toThrow(
      `A patch path is too long (1048576 characters; the limit is 4096): ${"y".repeat(80)}… (1048576 characters)`,
    );
    const error = await tool.execute("c", { input: patch(`*** Frob: ${huge}`) }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `Invalid patch hunk on line 2: '*** Frob: ${"y".repeat(110)}… (1048586 characters)' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
    );
    expect(readdirSync(root)).toEqual([]);
  });
  it("inserts a pure addition after its @@ context line, at the end only without one", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "f.py"), "def a():\n    pass\n\ndef b():\n    pass\n");
    await createApplyPatchTool({ workspaceDir: root }).execute("c", {
      input: patch("*** Update File: f.py", "@@ def a():", "+    # first", "@@", "+# tail"),
    });
    expect(readFileSync(path.join(root, "f.py"), "utf8")).toBe(
      "def a():\n    # first\n    pass\n\ndef b():\n    pass\n# tail\n",
    );
  });
});
