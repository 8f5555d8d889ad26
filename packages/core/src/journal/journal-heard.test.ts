import { execFileSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { JournalChange } from "./entry.js";
import { Journal } from "./journal.js";

// After the first command, a command's scan after lists only the directories inotify heard from
// while it ran (rescan.ts). Each command here is also recorded by a journal that scans the whole
// tree (a fresh one per command): both must record exactly the same changes.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-journal-heard-")));
  dirs.push(d);
  return d;
};
const sh = (cwd: string, script: string) => execFileSync("sh", ["-c", script], { cwd });

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[r] = `link:${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[r] = `dir:${(st.mode & 0o777).toString(8)}`;
        walk(abs, r);
      } else out[r] = `file:${(st.mode & 0o777).toString(8)}:${readFileSync(abs).toString("base64")}`;
    }
  };
  walk(root, "");
  return out;
}

const sorted = (files: JournalChange[]) => [...files].sort((a, b) => a.path.localeCompare(b.path));

const COMMANDS = [
  "echo changed > d1/s1/f1.txt",
  "mkdir -p d9/x/y && echo new > d9/x/y/n.txt && echo top > d9/t.txt",
  "rm -rf d2",
  "mv d3 d3-moved",
  "rm -rf d4/s0 && echo 'now a file' > d4/s0",
  "chmod 700 d1/s0/f0.txt",
  "ln -s d1/s1/f1.txt link",
  "chmod 700 d0/s1",
  "touch d0/s0/f0.txt",
  "echo x > d0/s0/tmp && rm d0/s0/tmp",
  "rm -rf d1/s1 && mkdir d1/s1 && echo again > d1/s1/f9.txt",
  "true",
  "mv d0/s0/f1.txt d0/s1/f1.txt && mkdir d0/s0/f1.txt",
  "printf 'a\\r\\nb' > deep.txt && mkdir -p d5/s0/z && echo z > d5/s0/z/z.txt",
];

describe("the scan after from what inotify heard", () => {
  it("records exactly what a whole-tree scan records, command after command, and undoes byte for byte", async () => {
    const root = temp();
    for (let d = 0; d < 6; d++)
      for (let s = 0; s < 2; s++) {
        mkdirSync(path.join(root, `d${d}`, `s${s}`), { recursive: true });
        for (let f = 0; f < 3; f++)
          writeFileSync(path.join(root, `d${d}`, `s${s}`, `f${f}.txt`), `${d}${s}${f}\n`);
      }
    const journal = new Journal(root, temp());
    const history = [snapshot(root)];
    const ids: string[] = [];
    try {
      for (const cmd of COMMANDS) {
        const whole = new Journal(root, temp());
        await journal.around("exec", () => whole.around("exec", async () => sh(root, cmd)));
        whole.dispose();
        const mine = (await journal.list()).entries;
        const reference = (await whole.list()).entries;
        const recorded = mine.length > ids.length ? mine.at(-1)! : undefined;
        expect(sorted(recorded?.files ?? []), cmd).toEqual(sorted(reference[0]?.files ?? []));
        if (recorded) {
          ids.push(recorded.id);
          history.push(snapshot(root));
        }
      }
      const final = snapshot(root);
      for (let k = ids.length - 1; k >= 0; k--) {
        await journal.undo(ids[k]!);
        expect(snapshot(root)).toEqual(history[k]);
      }
      for (let k = 0; k < ids.length; k++) await journal.redo();
      expect(snapshot(root)).toEqual(final);
    } finally {
      journal.dispose();
    }
  });

  it("a write through a shared mmap (no inotify event) is never restored over: undo refuses, naming the file", async () => {
    const root = temp();
    mkdirSync(path.join(root, "sub"));
    const journal = new Journal(root, temp());
    try {
      await journal.around("exec", async () => sh(root, "echo one > sub/a.txt"));
      await journal.around("exec", async () => sh(root, "echo two > b.txt"));
      const poke =
        "import mmap\nwith open('sub/a.txt', 'r+b') as f:\n  m = mmap.mmap(f.fileno(), 0)\n  m[0:1] = b'X'\n  m.flush()\n  m.close()\n";
      await journal.around("exec", async () => {
        execFileSync("/usr/bin/python3", ["-c", poke], { cwd: root });
      });
      expect(readFileSync(path.join(root, "sub", "a.txt"), "utf8")).toBe("Xne\n");
      const entries = (await journal.list()).entries;
      // whether or not this kernel told of it: undoing the first command never puts back bytes
      // over the mmap write unless the journal recorded that write first
      const recorded = entries.some((e) => e.files.some((f) => f.path === "sub/a.txt" && f.before !== null));
      if (recorded) {
        await journal.undo(entries[0]!.id);
        expect(() => lstatSync(path.join(root, "sub", "a.txt"))).toThrow();
      } else {
        await expect(journal.undo(entries[0]!.id)).rejects.toThrow(
          /^sub\/a\.txt changed outside the journal/,
        );
        expect(readFileSync(path.join(root, "sub", "a.txt"), "utf8")).toBe("Xne\n");
        expect(readFileSync(path.join(root, "b.txt"), "utf8")).toBe("two\n");
      }
    } finally {
      journal.dispose();
    }
  });
});
