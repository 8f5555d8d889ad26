import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Journal } from "./journal.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-journal-crash-")));
  dirs.push(d);
  return d;
};
const sh = (cwd: string, script: string) => execFileSync("sh", ["-c", script], { cwd });

/** The copy the journal keeps of `a.txt`'s state before its only entry. */
async function beforeCopy(journal: Journal): Promise<{ id: string; blob: string }> {
  const [entry] = (await journal.list()).entries;
  const before = entry!.files.find((f) => f.path === "a.txt")!.before;
  if (before?.type !== "file") throw new Error("no copy");
  return { id: entry!.id, blob: journal.blobs.pathOf(before.hash) };
}

/** inotify watches this process holds on the directories with these inode numbers (from /proc). */
function watchesOn(inodes: number[]): number {
  const wanted = new Set(inodes.map((n) => n.toString(16)));
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== "anon_inode:inotify") continue;
    for (const line of readFileSync(`/proc/self/fdinfo/${fd}`, "utf8").split("\n")) {
      const ino = /^inotify .*\bino:([0-9a-f]+)/.exec(line)?.[1];
      if (ino && wanted.has(ino)) n++;
    }
  }
  return n;
}

describe("undo journal after a crash", () => {
  it("refuses an undo whose copy a power cut left short or took away, changing nothing, naming the file", async () => {
    const root = temp();
    const journal = new Journal(root, temp());
    writeFileSync(path.join(root, "a.txt"), "one\n");
    writeFileSync(path.join(root, "b.txt"), "b\n");
    await journal.around("exec", async () => sh(root, "echo two > a.txt && rm b.txt"));
    const { id, blob } = await beforeCopy(journal);

    truncateSync(blob, 0);
    await expect(journal.undo(id)).rejects.toThrow(
      /^the journal's copy of a\.txt \([0-9a-f]{12}\) is damaged; nothing was restored$/,
    );
    await expect(journal.undo(id, { dryRun: true })).rejects.toThrow(/copy of a\.txt .* is damaged/);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("two\n");
    expect(() => statSync(path.join(root, "b.txt"))).toThrow();

    rmSync(blob);
    await expect(journal.undo(id)).rejects.toThrow(/copy of a\.txt .* is missing; nothing was restored/);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("two\n");
    expect(() => statSync(path.join(root, "b.txt"))).toThrow();
  });

  it("writes a short copy again when its content is seen again, and undo then works", async () => {
    const root = temp();
    const journal = new Journal(root, temp());
    writeFileSync(path.join(root, "a.txt"), "one\n");
    await journal.around("exec", async () => sh(root, "echo two > a.txt"));
    const { id, blob } = await beforeCopy(journal);
    truncateSync(blob, 1);
    // the same content appears again (another file): its copy is put again, whole
    await journal.around("exec", async () => sh(root, "echo one > c.txt"));
    expect(readFileSync(blob, "utf8")).toBe("one\n");
    await journal.undo(id);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(() => statSync(path.join(root, "c.txt"))).toThrow();
  });

  it("reads past a last entry line a crash cut short, and the next entry lands on a line of its own", async () => {
    const root = temp();
    const state = temp();
    writeFileSync(path.join(root, "a.txt"), "one\n");
    const first = new Journal(root, state);
    await first.around("exec", async () => sh(root, "echo two > a.txt"));
    first.dispose();
    const log = path.join(state, "journal", "entries.jsonl");
    appendFileSync(log, '{"id":"torn","tool":"ex');
    // a new process after the crash
    const journal = new Journal(root, state);
    expect((await journal.list()).entries.map((e) => e.tool)).toEqual(["exec"]);
    await journal.around("exec", async () => sh(root, "echo three > a.txt"));
    const { entries } = await journal.list();
    expect(entries.map((e) => e.files[0]!.path)).toEqual(["a.txt", "a.txt"]);
    await journal.undo(entries[0]!.id);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("one\n");
    journal.dispose();
  });
});

describe("Journal.dispose", () => {
  it("closes the inotify watches of the workspace's directories, and the journal still records after", async () => {
    const root = temp();
    mkdirSync(path.join(root, "sub", "deep"), { recursive: true });
    const inodes = [root, path.join(root, "sub"), path.join(root, "sub", "deep")].map((d) => statSync(d).ino);
    const journal = new Journal(root, temp());
    await journal.around("exec", async () => sh(root, "echo 1 > sub/a.txt"));
    expect(watchesOn(inodes)).toBe(3);
    journal.dispose();
    expect(watchesOn(inodes)).toBe(0);
    journal.dispose();
    await journal.around("exec", async () => sh(root, "echo 2 > sub/deep/b.txt"));
    expect((await journal.list()).entries.map((e) => e.files.map((f) => f.path))).toEqual([
      ["sub/a.txt"],
      ["sub/deep/b.txt"],
    ]);
    journal.dispose();
    expect(watchesOn(inodes)).toBe(0);
  });
});
