import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createApplyPatchTool,
  createEditTool,
  createGrepTool,
  createReadTool,
  createWriteTool,
} from "../src/index.js";
import { tempDir, text } from "./helpers.js";

// Swaps `<root>/sub` (a real directory) for a symlink to an outside directory and back, as fast
// as it can, in another process: what a background exec or a sandbox sharing the mount could do.
const SWAPPER = `
const fs = require("node:fs");
const [sub, hidden, outside, stopFile] = process.argv.slice(1);
let swaps = 0;
process.stdout.write("ready\\n");
for (;;) {
  try { fs.renameSync(sub, hidden); } catch {}
  try { fs.symlinkSync(outside, sub); } catch {}
  try { fs.unlinkSync(sub); } catch {}
  try { fs.renameSync(hidden, sub); } catch {}
  swaps++;
  if (swaps % 32 === 0 && (fs.existsSync(stopFile) || swaps > 5000000)) break;
}
process.stdout.write(String(swaps));
`;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Starts the swapper; resolves once it runs. `stop()` resolves with the number of swaps done. */
async function startSwapper(root: string, outside: string) {
  const stopFile = path.join(tempDir(), "stop");
  const child = spawn(
    process.execPath,
    ["-e", SWAPPER, path.join(root, "sub"), path.join(root, ".sub-hidden"), outside, stopFile],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  let output = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    output += chunk;
  });
  // 'close', not 'exit': the count it prints last may still be in the pipe when it exits
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  await new Promise<void>((resolve) => {
    const check = () => (output.startsWith("ready") ? resolve() : setTimeout(check, 5));
    check();
  });
  return {
    stop: async () => {
      writeFileSync(stopFile, "");
      await closed;
      return Number(output.slice("ready\n".length));
    },
  };
}

function setupRace() {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(path.join(root, "sub"));
  writeFileSync(path.join(root, "sub", "f.txt"), "inside marker\n");
  writeFileSync(path.join(outside, "f.txt"), "OUTSIDE SECRET marker\n");
  // deeper paths take the direct open of their parent (checked through /proc) before the walk
  mkdirSync(path.join(root, "sub", "deep"));
  mkdirSync(path.join(outside, "deep"));
  writeFileSync(path.join(root, "sub", "deep", "g.txt"), "inside marker\n");
  writeFileSync(path.join(outside, "deep", "g.txt"), "OUTSIDE SECRET marker\n");
  return { root, outside };
}

const settle = async <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: Error) => ({ ok: false as const, error }),
  );

// each case runs 200 rounds of tool calls (rg a process start each) beside a busy swapper:
// seconds on an idle machine, a minute and more on a loaded CI machine
describe("a directory swapped for a symlink to outside, in a tight loop", () => {
  it("read and grep (rg and built-in) never return outside content", async () => {
    const { root, outside } = setupRace();
    const read = createReadTool({ workspaceDir: root });
    const rg = createGrepTool({ workspaceDir: root });
    const builtIn = createGrepTool({ workspaceDir: root }, { ripgrep: false });
    // before the race: the tools see the inside files
    expect(text(await read.execute("r", { path: "sub/deep/g.txt" }))).toBe("inside marker\n");
    expect(text(await rg.execute("g", { pattern: "marker", path: "sub" }))).toContain(
      "f.txt:1: inside marker",
    );
    const swapper = await startSwapper(root, outside);
    const escapes: string[] = [];
    for (let i = 0; i < 200; i++) {
      const calls = [
        read.execute("r", { path: "sub/f.txt" }),
        read.execute("d", { path: "sub/deep/g.txt" }),
        builtIn.execute("b", { pattern: "marker", path: i % 2 ? "sub" : "sub/deep" }),
      ];
      // rg is a process start per call: every third round, on the directory and on the file
      if (i % 3 === 0) {
        calls.push(rg.execute("g", { pattern: "marker", path: "sub" }));
        calls.push(rg.execute("f", { pattern: "marker", path: "sub/f.txt" }));
      }
      for (const result of await Promise.all(calls.map(settle))) {
        if (!result.ok) continue;
        const shown = text(result.value);
        if (shown.includes("OUTSIDE")) escapes.push(shown);
      }
    }
    const swaps = await swapper.stop();
    expect(swaps).toBeGreaterThan(0);
    expect(escapes).toEqual([]);
  }, 120_000);

  it("write never lands outside and leaves no temp files there", async () => {
    const { root, outside } = setupRace();
    const write = createWriteTool({ workspaceDir: root });
    await write.execute("w", { path: "sub/deep/n.txt", content: "before the race" });
    const swapper = await startSwapper(root, outside);
    for (let i = 0; i < 200; i++) {
      // each call either fails (the directory is a link leading out at that moment) or writes inside
      await settle(
        write.execute("w", { path: i % 2 ? "sub/w.txt" : "sub/deep/n.txt", content: `write ${i}` }),
      );
    }
    await swapper.stop();
    expect(readdirSync(outside).sort()).toEqual(["deep", "f.txt"]);
    expect(readdirSync(path.join(outside, "deep"))).toEqual(["g.txt"]);
    expect(readFileSync(path.join(outside, "f.txt"), "utf8")).toBe("OUTSIDE SECRET marker\n");
    // and nothing of ours is left in the workspace either
    const sub = existsSync(path.join(root, "sub")) ? path.join(root, "sub") : path.join(root, ".sub-hidden");
    expect(readdirSync(sub).filter((n) => n.endsWith(".clawtools-tmp"))).toEqual([]);
  }, 120_000);
});

describe("concurrent writers through symlink aliases", () => {
  it("edit and apply_patch via the real name and an alias lose no update", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "real"));
    symlinkSync(path.join(root, "real"), path.join(root, "alias"));
    const lines = Array.from({ length: 30 }, (_, i) => `[item${i}]`);
    writeFileSync(path.join(root, "real", "f.txt"), `${lines.join("\n")}\n`);
    const edit = createEditTool({ workspaceDir: root });
    const patch = createApplyPatchTool({ workspaceDir: root });
    const via = (i: number) => (i % 2 ? "alias/f.txt" : "real/f.txt");
    const results = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        edit.execute(`e${i}`, { path: via(i), edits: [{ oldText: `[item${i}]`, newText: `edited${i}` }] }),
      ),
      ...Array.from({ length: 10 }, (_, k) => {
        const i = 20 + k;
        return patch.execute(`p${i}`, {
          input: `*** Begin Patch\n*** Update File: ${via(k)}\n-[item${i}]\n+patched${i}\n*** End Patch`,
        });
      }),
    ]);
    expect(results).toHaveLength(30);
    expect(readFileSync(path.join(root, "real", "f.txt"), "utf8")).toBe(
      `${lines.map((_, i) => (i < 20 ? `edited${i}` : `patched${i}`)).join("\n")}\n`,
    );
  });

  it("write and apply_patch on one file through different names serialise", async () => {
    for (let round = 0; round < 30; round++) {
      const root = tempDir();
      mkdirSync(path.join(root, "real"));
      symlinkSync("real", path.join(root, "alias"));
      writeFileSync(path.join(root, "real", "g.txt"), "a\nb\n");
      const write = createWriteTool({ workspaceDir: root });
      const patch = createApplyPatchTool({ workspaceDir: root });
      await Promise.all([
        patch.execute("p", { input: "*** Begin Patch\n*** Update File: real/g.txt\n-a\n+A\n*** End Patch" }),
        write.execute("w", { path: "alias/g.txt", content: "a\nb\nW\n" }),
      ]);
      // write then patch, or patch then write; never the patch's stale read over the write
      expect(["A\nb\nW\n", "a\nb\nW\n"]).toContain(readFileSync(path.join(root, "real", "g.txt"), "utf8"));
    }
  }, 120_000);
});

describe("a read racing writes", () => {
  it("always gets the old or the new content, never an error", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "d"));
    symlinkSync("d", path.join(root, "alias"));
    const versions = Array.from({ length: 120 }, (_, i) => `version ${i}\n`.repeat(50));
    writeFileSync(path.join(root, "d", "f.txt"), versions[0]!);
    const read = createReadTool({ workspaceDir: root });
    const write = createWriteTool({ workspaceDir: root });
    const seen = new Set<string>();
    const reads: Promise<void>[] = [];
    for (let i = 1; i < versions.length; i++) {
      const pending = write.execute(`w${i}`, { path: "d/f.txt", content: versions[i]! });
      reads.push(
        read.execute(`r${i}`, { path: i % 2 ? "alias/f.txt" : "d/f.txt" }).then((r) => {
          seen.add(text(r));
        }),
      );
      await pending;
    }
    await Promise.all(reads);
    const known = new Set([...versions, ...versions.map((v) => v.replace(/\n$/, ""))]);
    expect([...seen].filter((content) => !known.has(content))).toEqual([]);
  }, 120_000);
});
