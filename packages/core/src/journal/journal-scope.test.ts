// A command that runs long (in the background) beside other calls, and sessions that each undo
// their own calls: real files in a temp workspace, the journal as the tools use it.
import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Journal } from "./journal.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-journal-scope-")));
  dirs.push(d);
  return d;
};

/** A tool's write as the fs tools journal it: the state before and after, recorded as one call. */
async function toolWrite(journal: Journal, root: string, name: string, text: string, session?: string) {
  const abs = path.join(root, name);
  const before = await journal.capture(abs);
  writeFileSync(abs, text);
  const after = await journal.capture(abs);
  return journal.record("write", [{ abs, before, after }], session ? { session } : {});
}

const read = (root: string, name: string) => readFileSync(path.join(root, name), "utf8");

describe("a command journalled while other calls change the workspace", () => {
  it("claims only its own changes; a path both changed starts from the other call's state", async () => {
    const root = temp();
    writeFileSync(path.join(root, "a.txt"), "a0\n");
    const journal = new Journal(root, temp());
    const end = await journal.begin("exec");
    // while the command runs: a tool's write of a.txt, then the command's own writes
    await toolWrite(journal, root, "a.txt", "a1\n");
    writeFileSync(path.join(root, "b.txt"), "from the command\n");
    writeFileSync(path.join(root, "a.txt"), "a2 by the command\n");
    await end();
    const { entries } = await journal.list();
    expect(entries.map((e) => [e.tool, e.files.map((f) => f.path).sort()])).toEqual([
      ["write", ["a.txt"]],
      ["exec", ["a.txt", "b.txt"]],
    ]);
    const exec = entries[1]!;
    // undoing the command puts back the write's a1, not the a0 from before the command began
    await journal.undo(exec.id);
    expect(read(root, "a.txt")).toBe("a1\n");
    expect(readdirSync(root).sort()).toEqual(["a.txt"]);
    await journal.undo(entries[0]!.id);
    expect(read(root, "a.txt")).toBe("a0\n");
  });

  it("a command that changed nothing while another call did records nothing", async () => {
    const root = temp();
    const journal = new Journal(root, temp());
    const end = await journal.begin("exec");
    await toolWrite(journal, root, "w.txt", "written\n");
    expect(await end()).toBeUndefined();
    expect((await journal.list()).entries.map((e) => e.tool)).toEqual(["write"]);
  });
});

describe("a session's own calls", () => {
  it("lists, undoes and redoes one session's calls, leaving another session's between them", async () => {
    const root = temp();
    const journal = new Journal(root, temp());
    await toolWrite(journal, root, "a.txt", "s1 a\n", "s1");
    await toolWrite(journal, root, "b.txt", "s2 b\n", "s2");
    await toolWrite(journal, root, "c.txt", "s1 c\n", "s1");
    const mine = (await journal.list({ session: "s1" })).entries;
    expect(mine.map((e) => e.files[0]!.path)).toEqual(["a.txt", "c.txt"]);
    expect((await journal.list()).entries).toHaveLength(3);
    const other = (await journal.list({ session: "s2" })).entries[0]!;
    // another session's call is not this session's to see or undo
    await expect(journal.diff(other.id, { session: "s1" })).rejects.toThrow(/no journal entry/);
    await expect(journal.undo(other.id, { session: "s1" })).rejects.toThrow(/no journal entry/);

    await journal.undo(mine[0]!.id, { session: "s1" });
    expect(readdirSync(root).sort()).toEqual(["b.txt"]);
    await expect(journal.redo({ session: "s2" })).rejects.toThrow(/nothing to redo/);
    await journal.redo({ session: "s1" });
    expect(readdirSync(root).sort()).toEqual(["a.txt", "b.txt", "c.txt"]);
  });

  it("refuses, changing nothing, when another session changed the same file later", async () => {
    const root = temp();
    const journal = new Journal(root, temp());
    const first = await toolWrite(journal, root, "x.txt", "s1\n", "s1");
    await toolWrite(journal, root, "x.txt", "s2 on top\n", "s2");
    await toolWrite(journal, root, "x.txt", "s1 again\n", "s1");
    await expect(journal.undo(first!.id, { session: "s1" })).rejects.toThrow(
      /^x\.txt was also changed by a later call of another session/,
    );
    expect(read(root, "x.txt")).toBe("s1 again\n");
    // the whole workspace's undo (the CLI's) goes through
    await journal.undo(first!.id);
    expect(readdirSync(root)).toEqual([]);
  });
});
