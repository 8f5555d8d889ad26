import { linkSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveContained, openVerified } from "../src/bridge/containment.js";
import { createEditTool, createReadTool, createWriteTool } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

describe("workspace containment (on by default)", () => {
  it("refuses .. and absolute escapes, naming the root and the path", async () => {
    const root = tempDir();
    const read = createReadTool({ workspaceDir: root });
    await expect(read.execute("c", { path: "../outside.txt" })).rejects.toThrow(
      `Path escapes sandbox root (${root}): ../outside.txt`,
    );
    await expect(read.execute("c", { path: "/etc/passwd" })).rejects.toThrow(
      `Path escapes sandbox root (${root}): /etc/passwd`,
    );
  });

  it("refuses final and intermediate symlinks that lead outside, for reads and writes", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.txt"), "top secret");
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
    symlinkSync(outside, path.join(root, "out"));
    const read = createReadTool({ workspaceDir: root });
    const write = createWriteTool({ workspaceDir: root });
    await expect(read.execute("c", { path: "link.txt" })).rejects.toThrow(/Symlink escapes sandbox root/);
    await expect(read.execute("c", { path: "out/secret.txt" })).rejects.toThrow(
      /Symlink escapes sandbox root/,
    );
    await expect(write.execute("c", { path: "out/new.txt", content: "x" })).rejects.toThrow(
      /Symlink escapes sandbox root/,
    );
    await expect(write.execute("c", { path: "link.txt", content: "pwned" })).rejects.toThrow(
      /Symlink escapes/,
    );
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret");
  });

  it("follows symlinks that stay inside the root", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "real"));
    writeFileSync(path.join(root, "real", "a.txt"), "inside");
    symlinkSync(path.join(root, "real"), path.join(root, "alias"));
    expect(text(await createReadTool({ workspaceDir: root }).execute("c", { path: "alias/a.txt" }))).toBe(
      "inside",
    );
  });

  it("refuses to write or edit through a hardlink", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "target.txt"), "original");
    linkSync(path.join(outside, "target.txt"), path.join(root, "hard.txt"));
    await expect(
      createWriteTool({ workspaceDir: root }).execute("c", { path: "hard.txt", content: "x" }),
    ).rejects.toThrow(/hardlink/);
    await expect(
      createEditTool({ workspaceDir: root }).execute("c", {
        path: "hard.txt",
        edits: [{ oldText: "original", newText: "x" }],
      }),
    ).rejects.toThrow(/hardlink/);
    expect(readFileSync(path.join(outside, "target.txt"), "utf8")).toBe("original");
  });

  it("refuses a path swapped for a symlink between check and use", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(root, "file.txt"), "inside");
    writeFileSync(path.join(outside, "secret.txt"), "secret");
    const checked = await resolveContained(root, path.join(root, "file.txt"), { input: "file.txt" });
    renameSync(path.join(root, "file.txt"), path.join(root, "moved.txt"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "file.txt"));
    await expect(openVerified(root, checked, "file.txt")).rejects.toThrow(
      /Path changed to a symlink during access/,
    );
  });

  it("can be turned off", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "x.txt"), "free");
    const read = createReadTool({ workspaceDir: root }, { workspaceOnly: false });
    expect(text(await read.execute("c", { path: path.join(outside, "x.txt") }))).toBe("free");
  });
});
