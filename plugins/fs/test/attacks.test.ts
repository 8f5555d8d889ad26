import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createApplyPatchTool,
  createEditTool,
  createMemoryBridge,
  createReadTool,
  createWriteTool,
} from "../src/index.js";
import { tempDir, text } from "./helpers.js";

describe("more attacks and edge cases", () => {
  it("the next write sweeps the temp file of a write killed mid-way (kill -9), once stale", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "d"));
    const stale = path.join(root, "d", ".f.txt.0123456789ab.clawtools-tmp");
    const young = path.join(root, "d", ".g.txt.ba9876543210.clawtools-tmp");
    // a writer that dies holding its temp file open, half written
    const writer = spawn(
      process.execPath,
      [
        "-e",
        `const fs=require("fs");const fd=fs.openSync(process.argv[1],"wx");fs.writeSync(fd,"half");process.stdout.write("x");setInterval(()=>{},1000)`,
        stale,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise((resolve) => writer.stdout!.once("data", resolve));
    writer.kill("SIGKILL");
    await new Promise((resolve) => writer.once("exit", resolve));
    writeFileSync(young, "in progress elsewhere");
    const sixMinutesAgo = (Date.now() - 6 * 60_000) / 1000;
    utimesSync(stale, sixMinutesAgo, sixMinutesAgo);
    await createWriteTool({ workspaceDir: root }).execute("c", { path: "d/f.txt", content: "whole" });
    expect(readdirSync(path.join(root, "d")).sort()).toEqual([".g.txt.ba9876543210.clawtools-tmp", "f.txt"]);
    expect(readFileSync(path.join(root, "d", "f.txt"), "utf8")).toBe("whole");
  });

  it("refuses a NUL byte in a path", async () => {
    const root = tempDir();
    await expect(createReadTool({ workspaceDir: root }).execute("c", { path: "a\0b" })).rejects.toThrow(
      /contains a NUL byte/,
    );
    await expect(
      createWriteTool({ workspaceDir: root }).execute("c", { path: "x\0.txt", content: "" }),
    ).rejects.toThrow(/NUL byte/);
  });

  it("writes through a symlinked parent directory only when it stays inside", async () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(root, "real"));
    symlinkSync(path.join(root, "real"), path.join(root, "inner"));
    symlinkSync(outside, path.join(root, "outer"));
    const write = createWriteTool({ workspaceDir: root });
    await write.execute("c", { path: "inner/ok.txt", content: "in" });
    expect(readFileSync(path.join(root, "real", "ok.txt"), "utf8")).toBe("in");
    await expect(write.execute("c", { path: "outer/deep/evil.txt", content: "x" })).rejects.toThrow(
      /Symlink escapes sandbox root/,
    );
    expect(existsSync(path.join(outside, "deep"))).toBe(false);
  });

  it("reads a binary (non-image) file as text without crashing", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "blob.bin"), Buffer.from([0, 1, 2, 255, 10, 65]));
    const r = await createReadTool({ workspaceDir: root }).execute("c", { path: "blob.bin" });
    expect(r.content[0]!.type).toBe("text");
    expect(text(r).endsWith("\nA")).toBe(true);
  });

  it("loses none of 20 concurrent edits of one file", async () => {
    const bridge = createMemoryBridge({
      "f.txt": Array.from({ length: 20 }, (_, i) => `[item${i}]`).join("\n"),
    });
    const edit = createEditTool({ root: "/workspace", bridge });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        edit.execute(`c${i}`, { path: "f.txt", edits: [{ oldText: `[item${i}]`, newText: `done${i}` }] }),
      ),
    );
    const final = bridge.files.get("/workspace/f.txt")!.toString();
    expect(final.split("\n")).toEqual(Array.from({ length: 20 }, (_, i) => `done${i}`));
  });

  it("an apply_patch whose third hunk fails leaves the first two files untouched", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "one.txt"), "1\n");
    writeFileSync(path.join(root, "two.txt"), "2\n");
    writeFileSync(path.join(root, "three.txt"), "3\n");
    const input = [
      "*** Begin Patch",
      "*** Update File: one.txt",
      "-1",
      "+ONE",
      "*** Update File: two.txt",
      "-2",
      "+TWO",
      "*** Update File: three.txt",
      "-not three",
      "+THREE",
      "*** End Patch",
    ].join("\n");
    await expect(createApplyPatchTool({ workspaceDir: root }).execute("c", { input })).rejects.toThrow(
      /Failed to find expected lines in three.txt/,
    );
    expect(["one.txt", "two.txt", "three.txt"].map((f) => readFileSync(path.join(root, f), "utf8"))).toEqual([
      "1\n",
      "2\n",
      "3\n",
    ]);
  });

  it("works the same over the in-memory bridge for apply_patch", async () => {
    const bridge = createMemoryBridge({ "a.txt": "x\n" });
    const tool = createApplyPatchTool({ root: "/workspace", bridge });
    await tool.execute("c", {
      input: "*** Begin Patch\n*** Update File: a.txt\n-x\n+y\n*** Add File: b/c.txt\n+new\n*** End Patch",
    });
    expect(bridge.files.get("/workspace/a.txt")!.toString()).toBe("y\n");
    expect(bridge.files.get("/workspace/b/c.txt")!.toString()).toBe("new\n");
  });
});
