import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { Journal } from "./journal.js";

// A command's scan before may reuse the scan after the previous command when nothing wrote in
// between. Other processes write between commands too (an editor, a formatter): their changes
// are never a command's, and a file both changed starts from what the other process left.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-journal-between-")));
  dirs.push(d);
  return d;
};
/** Another process, run to its end between two commands. */
const outside = (cwd: string, script: string) => execFileSync("sh", ["-c", script], { cwd });
const command = (cwd: string, script: string) => async () => {
  outside(cwd, script);
};
const pathsOf = async (journal: Journal) =>
  (await journal.list()).entries.map((e) => e.files.map((f) => f.path));

it("a file another process wrote between two commands is not the second command's; undo keeps what it wrote", async () => {
  const root = temp();
  writeFileSync(path.join(root, "shared.txt"), "v1\n");
  writeFileSync(path.join(root, "theirs.txt"), "t1\n");
  const journal = new Journal(root, temp());
  await journal.around("exec", command(root, "echo 1 > first.txt"));
  outside(root, "echo v2-from-the-editor > shared.txt; echo t2 > theirs.txt");
  await journal.around("exec", command(root, "sed -i 's/editor/command/' shared.txt"));
  expect(await pathsOf(journal)).toEqual([["first.txt"], ["shared.txt"]]);
  const second = (await journal.list()).entries[1]!;
  await journal.undo(second.id);
  expect(readFileSync(path.join(root, "shared.txt"), "utf8")).toBe("v2-from-the-editor\n");
  expect(readFileSync(path.join(root, "theirs.txt"), "utf8")).toBe("t2\n");
});

it("changes between commands inside directories a command made or replaced are seen", async () => {
  const root = temp();
  mkdirSync(path.join(root, "old"));
  writeFileSync(path.join(root, "old", "a.txt"), "a\n");
  const journal = new Journal(root, temp());
  await journal.around("exec", command(root, "mkdir -p new/deep && echo x > new/deep/x.txt"));
  await journal.around("exec", command(root, "rm -rf old && mkdir old"));
  outside(root, "echo y > new/deep/y.txt; echo z > old/z.txt; chmod 700 new");
  await journal.around("exec", command(root, "true"));
  expect(await pathsOf(journal)).toEqual([["new", "new/deep", "new/deep/x.txt"], ["old/a.txt"]]);
});

it("a write through a hard link outside the workspace between commands is not the next command's", async () => {
  const root = temp();
  const elsewhere = temp();
  writeFileSync(path.join(root, "linked.txt"), "one\n");
  linkSync(path.join(root, "linked.txt"), path.join(elsewhere, "alias.txt"));
  const journal = new Journal(root, temp());
  await journal.around("exec", command(root, "echo 1 > first.txt"));
  // the same inode, opened through a directory no watch of the workspace sees
  outside(elsewhere, "echo two > alias.txt");
  await journal.around("exec", command(root, "echo 2 > second.txt"));
  expect(await pathsOf(journal)).toEqual([["first.txt"], ["second.txt"]]);
});

it("many commands in a row with nothing between them record nothing, and the next real change is recorded", async () => {
  const root = temp();
  for (let i = 0; i < 50; i++) writeFileSync(path.join(root, `f${i}.txt`), `${i}\n`);
  const journal = new Journal(root, temp());
  for (let i = 0; i < 5; i++) await journal.around("exec", command(root, "true"));
  expect(await pathsOf(journal)).toEqual([]);
  await journal.around("exec", command(root, "echo changed > f7.txt"));
  outside(root, "echo by-someone-else > f8.txt");
  await journal.around("exec", command(root, "echo changed > f9.txt"));
  expect(await pathsOf(journal)).toEqual([["f7.txt"], ["f9.txt"]]);
});
