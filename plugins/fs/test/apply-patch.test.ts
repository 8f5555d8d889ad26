import { existsSync, readFileSync, writeFileSync } from "node:fs";
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
    expect(text(await tool.execute("c", { input: patch() }))).toBe("No files were modified.");
  });
});
