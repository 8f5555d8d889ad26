import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { Journal } from "./journal.js";

// The journal scans a workspace other processes write to at the same time: paths come and go
// between a scan's lstat and its read, and serve's own state directory may sit inside it.

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-journal-race-")));
  dirs.push(d);
  return d;
};

it("a file renamed or removed while a scan reads it is absent, never a failed command", async () => {
  const root = temp();
  // another process replacing a file through temp files, as every atomic writer does
  const writer = spawn(
    "sh",
    ["-c", 'i=0; while :; do i=$((i+1)); echo "$i" > ".lease.$i.tmp"; mv ".lease.$i.tmp" lease.json; done'],
    { cwd: root, stdio: "ignore" },
  );
  children.push(writer);
  const journal = new Journal(root, temp());
  for (let round = 0; round < 200; round++)
    await journal.around("exec", async () =>
      writeFileSync(path.join(root, `own-${round % 3}.txt`), `${round}`),
    );
  const { entries } = await journal.list();
  expect(entries).toHaveLength(200);
  // the command's own change is recorded every time, whatever the other writer did meanwhile
  expect(entries.every((e) => e.files.some((f) => f.path.startsWith("own-")))).toBe(true);
});

it("a state directory inside the workspace is not journalled: undo leaves serve's state alone", async () => {
  const root = temp();
  const state = path.join(root, ".state");
  mkdirSync(state);
  const journal = new Journal(root, state);
  await journal.around("exec", async () => {
    writeFileSync(path.join(root, "made.txt"), "by the command\n");
    writeFileSync(path.join(state, "lease.json"), "written by serve meanwhile\n");
  });
  const [entry] = (await journal.list()).entries;
  expect(entry!.files.map((f) => f.path)).toEqual(["made.txt"]);
  await journal.undo(entry!.id);
  expect(() => readFileSync(path.join(root, "made.txt"))).toThrow();
  expect(readFileSync(path.join(state, "lease.json"), "utf8")).toBe("written by serve meanwhile\n");
});
