import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createToolset } from "@clawtools/core";
import { journalFor } from "@clawtools/core/journal";
import { afterEach, describe, expect, it } from "vitest";
import { createFsPlugin } from "../src/index.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-fs-dispose-")));
  dirs.push(d);
  return d;
};

/** What this process holds open: inotify watches on these directory inodes, descriptors of `file`. */
function held(inodes: number[], file: string): { watches: number; files: number } {
  const wanted = new Set(inodes.map((n) => n.toString(16)));
  let watches = 0;
  let files = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target === file) files++;
    if (target !== "anon_inode:inotify") continue;
    for (const line of readFileSync(`/proc/self/fdinfo/${fd}`, "utf8").split("\n")) {
      const ino = /^inotify .*\bino:([0-9a-f]+)/.exec(line)?.[1];
      if (ino && wanted.has(ino)) watches++;
    }
  }
  return { watches, files };
}

describe("fs section dispose", () => {
  it("releases the journals its tools recorded into: inotify watches and the entries file closed", async () => {
    const ws = temp();
    const stateDir = temp();
    mkdirSync(path.join(ws, "src"));
    const inodes = [ws, path.join(ws, "src")].map((d) => statSync(d).ino);
    const plugin = createFsPlugin();
    const set = createToolset({
      plugins: [plugin],
      context: { workspaceDir: ws, stateDir },
      policy: { profile: "coding" },
    });
    const write = set.tools.find((t) => t.name === "write")!;
    await write.execute("1", { path: "src/a.txt", content: "one\n" });
    // a command in the same workspace (what exec does) scans around it and watches the tree
    const journal = journalFor(ws, stateDir);
    await journal.around("exec", async () => writeFileSync(path.join(ws, "src", "b.txt"), "b\n"));
    const entries = path.join(stateDir, "journal", "entries.jsonl");
    expect(held(inodes, entries)).toEqual({ watches: 2, files: 1 });

    await plugin.dispose!();
    expect(held(inodes, entries)).toEqual({ watches: 0, files: 0 });

    // used again after the dispose: it records as before
    await write.execute("2", { path: "src/a.txt", content: "two\n" });
    expect((await journal.list()).entries.map((e) => e.tool)).toEqual(["write", "exec", "write"]);
    await plugin.dispose!();
    expect(held(inodes, entries)).toEqual({ watches: 0, files: 0 });
  });
});
