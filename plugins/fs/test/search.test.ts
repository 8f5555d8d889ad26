import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFindTool,
  createGrepTool,
  createLsTool,
  createMemoryBridge,
  createReadTool,
} from "../src/index.js";
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

const engines = [
  { name: "ripgrep", options: {} },
  { name: "built-in engine", options: { ripgrep: false as const } },
];

describe.each(engines)("grep ($name)", ({ options }) => {
  it("finds matches with relative paths, honours .gitignore, includes dotfiles, skips binaries", async () => {
    const root = tree();
    const r = await createGrepTool({ workspaceDir: root }, options).execute("c", { pattern: "TODO" });
    expect(text(r).split("\n").sort()).toEqual(["src/.hidden.ts:1: TODO hidden", "src/a.ts:2: // TODO fix"]);
  });

  it("supports ignoreCase, literal, glob, context and limit notices", async () => {
    const root = tree();
    const grep = createGrepTool({ workspaceDir: root }, options);
    expect(text(await grep.execute("c", { pattern: "todo", ignoreCase: true, glob: "**/deep/*.ts" }))).toBe(
      "src/deep/b.ts:1: todo: lowercase",
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
    expect(limited.details).toEqual({ matchLimitReached: 1 });
  });

  it("merges context, keeps only the last match's after-context at the limit, normalises CRLF", async () => {
    const root = tempDir();
    const lines = ["l1", "hit a", "l3", "l4", "hit b", "l6", "l7", "l8", "l9", "hit c", "l11"];
    writeFileSync(path.join(root, "f.txt"), `${lines.join("\r\n")}\r\n`);
    const grep = createGrepTool({ workspaceDir: root }, options);
    expect(text(await grep.execute("c", { pattern: "hit", context: 2 }))).toBe(
      [
        "f.txt-1- l1",
        "f.txt:2: hit a",
        "f.txt-3- l3",
        "f.txt-4- l4",
        "f.txt:5: hit b",
        "f.txt-6- l6",
        "f.txt-7- l7",
        "f.txt-8- l8",
        "f.txt-9- l9",
        "f.txt:10: hit c",
        "f.txt-11- l11",
      ].join("\n"),
    );
    expect(text(await grep.execute("c", { pattern: "hit", context: 1, limit: 2 }))).toBe(
      "f.txt-1- l1\nf.txt:2: hit a\nf.txt-3- l3\nf.txt-4- l4\nf.txt:5: hit b\nf.txt-6- l6\n\n" +
        "[2 matches limit reached. Use limit=4 for more, or refine pattern]",
    );
  });

  it("never follows symlinks while walking, so a link out of the workspace is not searched", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.txt"), "SECRET=1\n");
    symlinkSync(outside, path.join(root, "out"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link.txt"));
    writeFileSync(path.join(root, "mine.txt"), "SECRET=0\n");
    const grep = createGrepTool({ workspaceDir: root }, options);
    expect(text(await grep.execute("c", { pattern: "SECRET" }))).toBe("mine.txt:1: SECRET=0");
    await expect(grep.execute("c", { pattern: "SECRET", path: "out" })).rejects.toThrow(/escapes/i);
    await expect(grep.execute("c", { pattern: "SECRET", path: "../" })).rejects.toThrow(/escapes/i);
  });

  it("treats a pattern starting with a dash as a pattern, not an option", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "f.txt"), "a --files b\n");
    const grep = createGrepTool({ workspaceDir: root }, options);
    expect(text(await grep.execute("c", { pattern: "--files" }))).toBe("f.txt:1: a --files b");
  });

  it("stops on abort", async () => {
    const root = tree();
    const controller = new AbortController();
    controller.abort();
    await expect(
      createGrepTool({ workspaceDir: root }, options).execute("c", { pattern: "TODO" }, controller.signal),
    ).rejects.toThrow(/aborted/i);
  });

  it("cuts long lines at 500 chars with the notice", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "long.txt"), `needle ${"z".repeat(800)}`);
    const r = await createGrepTool({ workspaceDir: root }, options).execute("c", { pattern: "needle" });
    expect(text(r)).toContain(
      "... [truncated]\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]",
    );
  });
});

describe("grep engines", () => {
  it("give the same lines for the same tree and queries", async () => {
    const root = tempDir();
    for (let d = 0; d < 6; d++) {
      mkdirSync(path.join(root, `pkg${d}/src`), { recursive: true });
      writeFileSync(path.join(root, `pkg${d}/.gitignore`), "gen/\n");
      mkdirSync(path.join(root, `pkg${d}/gen`));
      writeFileSync(path.join(root, `pkg${d}/gen/out.ts`), "export const TODO = 1;\n");
      for (let f = 0; f < 8; f++) {
        const body = Array.from({ length: 30 }, (_, i) =>
          i % (f + 3) === 0 ? `// TODO(${d}.${f}) item ${i}` : `const v${i} = ${i * f};`,
        );
        writeFileSync(path.join(root, `pkg${d}/src/f${f}.${f % 2 ? "ts" : "js"}`), body.join("\n"));
      }
    }
    mkdirSync(path.join(root, "sub dir"));
    writeFileSync(path.join(root, "sub dir", "naïve file.ts"), "// TODO(ü) spaced path\n");
    writeFileSync(path.join(root, "pkg1/src/f1.test.ts"), "// TODO test file\n");
    writeFileSync(path.join(root, "notes.md"), "TODO in markdown\n");
    writeFileSync(path.join(root, ".hidden.test.ts"), "TODO hidden test\n");
    const queries = [
      { pattern: "TODO" },
      { pattern: "todo\\(\\d\\.[0-3]\\)", ignoreCase: true, context: 2 },
      { pattern: "v1\\d =", glob: "*.ts" },
      { pattern: "(2.", literal: true, glob: "pkg2/**/*.js" },
      // negation and braces: one glob matcher (picomatch) for the built-in engine, rg's own for rg
      { pattern: "TODO", glob: "!*.test.ts" },
      { pattern: "TODO", glob: "!src" },
      { pattern: "TODO", glob: "*.{ts,md}" },
      { pattern: "TODO", glob: "pkg{1,3}/src/*.{js,ts}" },
      { pattern: "TODO", glob: "!pkg[0-4]/**" },
    ];
    for (const q of queries) {
      const rg = await createGrepTool({ workspaceDir: root }).execute("c", { ...q, limit: 1000 });
      const js = await createGrepTool({ workspaceDir: root }, { ripgrep: false }).execute("c", {
        ...q,
        limit: 1000,
      });
      const sortByFile = (r: typeof rg) => text(r).split("\n").sort();
      expect(sortByFile(rg)).toEqual(sortByFile(js));
      expect(text(rg)).not.toBe("No matches found");
    }
  });

  it("uses ripgrep on the local disk: its regex syntax works there, and JS-only syntax still works", async () => {
    const root = tree();
    const rg = createGrepTool({ workspaceDir: root });
    // inline flags are ripgrep syntax that JavaScript regexes refuse
    expect(text(await rg.execute("c", { pattern: "(?i)todo: low" }))).toBe(
      "src/deep/b.ts:1: todo: lowercase",
    );
    await expect(
      createGrepTool({ workspaceDir: root }, { ripgrep: false }).execute("c", { pattern: "(?i)todo: low" }),
    ).rejects.toThrow(/Invalid regex pattern/);
    // a look-ahead is refused by ripgrep's engine; the built-in engine answers instead
    expect(text(await rg.execute("c", { pattern: "alpha(?= = 1)" }))).toBe(
      "src/a.ts:1: export const alpha = 1;",
    );
  });

  it("names a ripgrep binary that cannot start", async () => {
    const root = tree();
    const grep = createGrepTool({ workspaceDir: root }, { ripgrep: path.join(root, "no-such-rg") });
    await expect(grep.execute("c", { pattern: "TODO" })).rejects.toThrow(/no-such-rg/);
  });

  it("uses the built-in engine over other bridges", async () => {
    const bridge = createMemoryBridge({ "long.txt": "needle here" });
    const r = await createGrepTool({ root: "/workspace", bridge }).execute("c", {
      pattern: "(?=needle)need",
    });
    expect(text(r)).toBe("long.txt:1: needle here");
  });
});

describe("grep's built-in engine runs user regexes off the main thread", () => {
  const catastrophic = { pattern: "^(a+)+$", path: "slow.txt" };
  const files = () =>
    createMemoryBridge({ "slow.txt": `${"a".repeat(40)}!\n`, "fast.txt": "quick answer\n" });

  it("other calls are answered while a catastrophic pattern runs, and abort terminates it", async () => {
    const bridge = files();
    const grep = createGrepTool({ root: "/workspace", bridge }, { regexTimeoutMs: 600_000 });
    const read = createReadTool({ root: "/workspace", bridge });
    const controller = new AbortController();
    let settled = false;
    const slow = grep.execute("c", catastrophic, controller.signal).finally(() => {
      settled = true;
    });
    slow.catch(() => {});
    // over the memory bridge the grep reaches its regex within microtasks: on the main thread,
    // this timer (and every call after it) would wait for the backtracking to end
    await new Promise((resolve) => setTimeout(resolve, 0));
    const order: string[] = [];
    order.push(`read: ${text(await read.execute("c", { path: "fast.txt" }))}`);
    order.push(`grep: ${text(await grep.execute("c", { pattern: "quick" }))}`);
    order.push(`slow grep settled: ${settled}`);
    expect(order).toEqual([
      "read: quick answer\n",
      "grep: fast.txt:1: quick answer",
      "slow grep settled: false",
    ]);
    controller.abort();
    await expect(slow).rejects.toThrow("Operation aborted");
  });

  it("a catastrophic pattern is stopped at its deadline with an error that says why", async () => {
    const grep = createGrepTool({ root: "/workspace", bridge: files() }, { regexTimeoutMs: 500 });
    await expect(grep.execute("c", catastrophic)).rejects.toThrow(
      "The pattern did not finish within 0.5s on slow.txt (it likely backtracks catastrophically). Simplify it, or use literal=true.",
    );
  });

  it("quotes only a short prefix of a huge invalid pattern", async () => {
    const bridge = files();
    const pattern = `(${"a".repeat(1024 * 1024)}`;
    const error = await createGrepTool({ root: "/workspace", bridge })
      .execute("c", { pattern })
      .catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `Invalid regex pattern: Unterminated group (pattern "(${"a".repeat(118)}… (1048579 characters)). Use literal=true to search for the text as is.`,
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
    expect(text(await find.execute("c", { pattern: "*.{log,dat}" })).split("\n")).toEqual(["bin.dat"]);
    expect(text(await find.execute("c", { pattern: "!*.ts", path: "src" })).split("\n")).toEqual(["deep/"]);
    // many wildcards cost a linear walk, never a backtracking regex; bracketed ones are capped
    expect(text(await find.execute("c", { pattern: "*a*a*a*a*a*b*" }))).toBe(
      "No files found matching pattern",
    );
    await expect(find.execute("c", { pattern: "*a*a*a*a*[b]" })).rejects.toThrow(
      `Glob segment "*a*a*a*a*[b]" has 5 '*' wildcards; at most 3 are allowed next to brackets, braces or extglobs.`,
    );
    await expect(find.execute("c", { pattern: "*", path: "bin.dat" })).rejects.toThrow(
      "Not a directory: bin.dat. find searches a directory; use read for a file.",
    );
  });
});

describe("ls", () => {
  it("sorts case-insensitively, marks directories, includes dotfiles", async () => {
    const root = tempDir();
    writeFileSync(path.join(root, "b.txt"), "");
    writeFileSync(path.join(root, "A.txt"), "");
    writeFileSync(path.join(root, ".env"), "");
    mkdirSync(path.join(root, "dir"));
    const ls = createLsTool({ workspaceDir: root });
    expect(text(await ls.execute("c", {}))).toBe(".env\nA.txt\nb.txt\ndir/");
    expect(text(await ls.execute("c", { path: "dir" }))).toBe("(empty directory)");
    const page = await ls.execute("c", { limit: 2 });
    expect(text(page)).toBe(
      '.env\nA.txt\n\n[2 entries limit reached. Use limit=4 for more, or after="A.txt" to continue]',
    );
    expect(page.details).toEqual({ entryLimitReached: 2, nextAfter: "A.txt" });
    // OpenClaw 9.6's `after` cursor continues the listing in the same order
    expect(text(await ls.execute("c", { after: "A.txt" }))).toBe("b.txt\ndir/");
    await expect(ls.execute("c", { path: "b.txt" })).rejects.toThrow(
      "Not a directory: b.txt. ls lists a directory; use read for a file.",
    );
    await expect(ls.execute("c", { path: "nope" })).rejects.toThrow("Path not found: nope.");
  });

  it("lists links that lead outside or nowhere as links, never following them", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret.txt"), "secret");
    mkdirSync(path.join(root, "dir"));
    writeFileSync(path.join(root, "dir", "f.txt"), "");
    symlinkSync(outside, path.join(root, "escape"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link"));
    symlinkSync("missing.txt", path.join(root, "dangling"));
    symlinkSync("loop-b", path.join(root, "loop-a"));
    symlinkSync("loop-a", path.join(root, "loop-b"));
    symlinkSync("dir", path.join(root, "alias"));
    symlinkSync("dir/f.txt", path.join(root, "f-link"));
    const ls = createLsTool({ workspaceDir: root });
    expect(text(await ls.execute("c", {}))).toBe(
      [
        "alias/",
        "dangling@ -> missing.txt (broken)",
        "dir/",
        `escape@ -> ${outside} (outside the workspace)`,
        "f-link",
        "loop-a@ -> loop-b (symlink loop)",
        "loop-b@ -> loop-a (symlink loop)",
        `secret-link@ -> ${path.join(outside, "secret.txt")} (outside the workspace)`,
      ].join("\n"),
    );
    // a link's entry is a page position like any other
    const page = await ls.execute("c", { limit: 2 });
    expect(page.details).toEqual({ entryLimitReached: 2, nextAfter: "dangling" });
    // without containment the same link is followed like any other
    const free = createLsTool({ workspaceDir: root }, { workspaceOnly: false });
    expect(text(await free.execute("c", {}))).toContain("\nescape/\n");
  });
});
