import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFindTool, createGrepTool, createLsTool, createMemoryBridge } from "../src/index.js";
import { tempDir, text } from "./helpers.js";

function tree() {
  const root = tempDir();
  mkdirSync(path.join(root, "src/deep"), { recursive: true });
  mkdirSync(path.join(root, "node_modules/pkg"), { recursive: true });
  writeFileSync(path.join(root, ".gitignore"), "dist/\n*.log\n");
  writeFileSync(path.join(root, "src/a.ts"), "export const alpha = 1;\n// TODO fix\nconst beta = 2;\n");
  writeFileSync(path.join(root, "src/deep/b.ts"), "todo: lowercase\n");
  writeFileSync(path.join(root, "src/.hidden.ts"), "TODO hidden\n");
  writeFileSync(path.join(root, "debug.log"), "TODO ignored\n");
  writeFileSync(path.join(root, "node_modules/pkg/i.ts"), "TODO vendored\n");
  mkdirSync(path.join(root, "dist"));
  writeFileSync(path.join(root, "dist/out.ts"), "TODO built\n");
  writeFileSync(path.join(root, "bin.dat"), Buffer.from([0, 1, 2, 84, 79, 68, 79]));
  return root;
}

describe("grep", () => {
  it("finds matches with relative paths, honours .gitignore, includes dotfiles, skips binaries", async () => {
    const root = tree();
    const r = await createGrepTool({ workspaceDir: root }).execute("c", { pattern: "TODO" });
    expect(text(r).split("\n").sort()).toEqual(["src/.hidden.ts:1: TODO hidden", "src/a.ts:2: // TODO fix"]);
  });

  it("supports ignoreCase, literal, glob, context and limit notices", async () => {
    const root = tree();
    const grep = createGrepTool({ workspaceDir: root });
    expect(text(await grep.execute("c", { pattern: "todo", ignoreCase: true, glob: "**/deep/*.ts" }))).toBe(
      "deep/b.ts:1: todo: lowercase".replace("deep", "src/deep"),
    );
    expect(text(await grep.execute("c", { pattern: "alpha", path: "src/a.ts", context: 1 }))).toBe(
      "a.ts:1: export const alpha = 1;\na.ts-2- // TODO fix",
    );
    expect(text(await grep.execute("c", { pattern: "(", literal: true }))).toBe("No matches found");
    await expect(grep.execute("c", { pattern: "(" })).rejects.toThrow(/Invalid regex pattern/);
    const limited = await grep.execute("c", { pattern: "TODO|todo", limit: 1 });
    expect(text(limited)).toMatch(
      /\n\n\[1 matches limit reached\. Use limit=2 for more, or refine pattern\]$/,
    );
  });

  it("cuts long lines at 500 chars with the notice", async () => {
    const bridge = createMemoryBridge({ "long.txt": `needle ${"z".repeat(800)}` });
    const r = await createGrepTool({ root: "/workspace", bridge }).execute("c", { pattern: "needle" });
    expect(text(r)).toContain(
      "... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]",
    );
  });
});

describe("find", () => {
  it("matches globs on names or paths, respects .gitignore, marks nothing else", async () => {
    const root = tree();
    const find = createFindTool({ workspaceDir: root });
    expect(text(await find.execute("c", { pattern: "*.ts" })).split("\n")).toEqual([
      "src/.hidden.ts",
      "src/a.ts",
      "src/deep/b.ts",
    ]);
    expect(text(await find.execute("c", { pattern: "src/**/*.ts" })).split("\n")).toContain("src/deep/b.ts");
    expect(text(await find.execute("c", { pattern: "*.none" }))).toBe("No files found matching pattern");
    expect(text(await find.execute("c", { pattern: "*.ts", limit: 1 }))).toBe(
      "src/.hidden.ts\n\n[1 results limit reached. Use limit=2 for more, or refine pattern]",
    );
  });
});

describe("ls", () => {
  it("sorts case-insensitively, marks directories, includes dotfiles, skips escaping symlinks", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(root, "b.txt"), "");
    writeFileSync(path.join(root, "A.txt"), "");
    writeFileSync(path.join(root, ".env"), "");
    mkdirSync(path.join(root, "dir"));
    symlinkSync(outside, path.join(root, "escape"));
    const ls = createLsTool({ workspaceDir: root });
    expect(text(await ls.execute("c", {}))).toBe(".env\nA.txt\nb.txt\ndir/");
    expect(text(await ls.execute("c", { path: "dir" }))).toBe("(empty directory)");
    expect(text(await ls.execute("c", { limit: 2 }))).toBe(
      ".env\nA.txt\n\n[2 entries limit reached. Use limit=4 for more]",
    );
    await expect(ls.execute("c", { path: "b.txt" })).rejects.toThrow(
      `Not a directory: ${path.join(root, "b.txt")}`,
    );
    await expect(ls.execute("c", { path: "nope" })).rejects.toThrow(
      `Path not found: ${path.join(root, "nope")}`,
    );
  });
});
