import { linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createEditTool,
  createFindTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createWriteTool,
} from "../src/index.js";
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

  it("refuses to read or grep a hardlinked file, saying it is a hard link", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "target.txt"), "secret token");
    linkSync(path.join(outside, "target.txt"), path.join(root, "hard.txt"));
    writeFileSync(path.join(root, "plain.txt"), "public token");
    await expect(createReadTool({ workspaceDir: root }).execute("c", { path: "hard.txt" })).rejects.toThrow(
      `Refusing to read through a hardlink (2 links) inside ${root}: ${path.join(root, "hard.txt")}`,
    );
    const rg = createGrepTool({ workspaceDir: root });
    await expect(rg.execute("c", { pattern: "token", path: "hard.txt" })).rejects.toThrow(
      `Refusing to read through a hardlink (2 links) inside ${root}: ${path.join(root, "hard.txt")}`,
    );
    const builtIn = createGrepTool({ workspaceDir: root }, { ripgrep: false });
    // the built-in engine skips files it may not read
    expect(text(await builtIn.execute("c", { pattern: "token", path: "hard.txt" }))).toBe("No matches found");
    // a directory search leaves the hardlinked file out, whichever engine runs
    for (const grep of [rg, builtIn]) {
      expect(text(await grep.execute("c", { pattern: "token" }))).toBe("plain.txt:1: public token");
    }
  });

  it("removes nothing and writes nothing outside when the path leads out through a symlink", async () => {
    const root = tempDir();
    const outside = tempDir();
    symlinkSync(outside, path.join(root, "out"));
    const write = createWriteTool({ workspaceDir: root });
    await expect(write.execute("c", { path: "out/a/b/c.txt", content: "x" })).rejects.toThrow(
      `Symlink escapes sandbox root (${root}): ${path.join(root, "out", "a", "b", "c.txt")} -> ${outside}`,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a workspace given through a symlink accepts its real path, and still refuses escapes", async () => {
    const parent = tempDir();
    const outside = tempDir();
    const real = path.join(parent, "real");
    const link = path.join(parent, "link");
    mkdirSync(path.join(real, "src"), { recursive: true });
    symlinkSync(real, link);
    writeFileSync(path.join(real, "src", "a.txt"), "hello\n");
    writeFileSync(path.join(outside, "secret.txt"), "secret\n");
    symlinkSync(outside, path.join(real, "out"));
    const ctx = { workspaceDir: link };
    const file = path.join(real, "src", "a.txt");
    expect(text(await createReadTool(ctx).execute("c", { path: file }))).toBe("hello\n");
    expect(text(await createReadTool(ctx).execute("c", { path: path.join(link, "src", "a.txt") }))).toBe(
      "hello\n",
    );
    await createEditTool(ctx).execute("c", { path: file, oldText: "hello", newText: "bye" });
    await createWriteTool(ctx).execute("c", { path: path.join(real, "src", "b.txt"), content: "two" });
    expect(readFileSync(file, "utf8")).toBe("bye\n");
    expect(readFileSync(path.join(real, "src", "b.txt"), "utf8")).toBe("two");
    expect(text(await createLsTool(ctx).execute("c", { path: path.join(real, "src") }))).toBe("a.txt\nb.txt");
    expect(text(await createFindTool(ctx).execute("c", { pattern: "*.txt", path: real }))).toBe(
      "src/a.txt\nsrc/b.txt",
    );
    expect(text(await createGrepTool(ctx).execute("c", { pattern: "bye", path: real }))).toBe(
      "src/a.txt:1: bye",
    );
    // the real spelling is no way around containment
    await expect(createReadTool(ctx).execute("c", { path: path.join(real, "..", "x") })).rejects.toThrow(
      `Path escapes sandbox root (${link}): ${path.join(real, "..", "x")}`,
    );
    await expect(
      createReadTool(ctx).execute("c", { path: path.join(real, "out", "secret.txt") }),
    ).rejects.toThrow(/^Symlink escapes sandbox root/);
    await expect(
      createWriteTool(ctx).execute("c", { path: path.join(real, "out", "new.txt"), content: "x" }),
    ).rejects.toThrow(/^Symlink escapes sandbox root/);
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("a path through a link outside the workspace that leads into it is inside (macOS /tmp -> /private/tmp)", async () => {
    const parent = tempDir();
    const outside = tempDir();
    const real = path.join(parent, "real");
    mkdirSync(path.join(real, "src"), { recursive: true });
    writeFileSync(path.join(real, "src", "a.txt"), "hello\n");
    writeFileSync(path.join(outside, "secret.txt"), "secret\n");
    symlinkSync(real, path.join(parent, "link"));
    symlinkSync(outside, path.join(real, "out"));
    const ctx = { workspaceDir: real };
    const via = path.join(parent, "link");
    expect(text(await createReadTool(ctx).execute("c", { path: path.join(via, "src", "a.txt") }))).toBe(
      "hello\n",
    );
    await createWriteTool(ctx).execute("c", { path: path.join(via, "src", "new", "b.txt"), content: "b" });
    expect(readFileSync(path.join(real, "src", "new", "b.txt"), "utf8")).toBe("b");
    // resolving the outside link gives nothing that leaving the root through an inside one would
    await expect(
      createReadTool(ctx).execute("c", { path: path.join(via, "out", "secret.txt") }),
    ).rejects.toThrow(`Path escapes sandbox root (${real}): ${path.join(via, "out", "secret.txt")}`);
    await expect(
      createReadTool(ctx).execute("c", { path: path.join(outside, "secret.txt") }),
    ).rejects.toThrow(/^Path escapes sandbox root/);
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
  });

  it("can be turned off", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "x.txt"), "free");
    const read = createReadTool({ workspaceDir: root }, { workspaceOnly: false });
    expect(text(await read.execute("c", { path: path.join(outside, "x.txt") }))).toBe("free");
  });
});
