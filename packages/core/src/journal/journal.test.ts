import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
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
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-journal-")));
  dirs.push(d);
  return d;
};

/** Every path under `root` with what undo must restore: bytes, mode, link target. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of execFileSync("ls", ["-A", dir], { encoding: "utf8" }).split("\n").filter(Boolean)) {
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

const sh = (cwd: string, script: string) => execFileSync("sh", ["-c", script], { cwd });

describe("undo journal around commands", () => {
  it("undoes random sequences of sed -i, mv, rm, chmod, ln -s byte for byte, modes and links included; redo puts them back", async () => {
    const commands = [
      "sed -i 's/a/A/g' one.txt",
      "mv two.txt sub/moved.txt",
      "rm -f three.bin",
      "chmod 755 one.txt",
      "ln -sf one.txt link",
      "mkdir -p new/deep && printf 'x\\r\\n' > new/deep/f.txt",
      "rm -rf sub",
      "printf '\\0\\1\\2' >> three.bin 2>/dev/null || true",
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    for (let round = 0; round < 3; round++) {
      const root = temp();
      const state = temp();
      writeFileSync(path.join(root, "one.txt"), "alpha\nbeta\n");
      writeFileSync(path.join(root, "two.txt"), "two\r\n");
      writeFileSync(path.join(root, "three.bin"), Buffer.from([0, 255, 10, 13]));
      mkdirSync(path.join(root, "sub"));
      writeFileSync(path.join(root, "sub", "keep.txt"), "keep");
      chmodSync(path.join(root, "sub", "keep.txt"), 0o600);
      const journal = new Journal(root, state);
      const history = [snapshot(root)];
      const ids: string[] = [];
      for (let k = 0; k < 4; k++) {
        const cmd = commands[rand(commands.length)]!;
        await journal.around("exec", async () => sh(root, cmd));
        const after = snapshot(root);
        const { entries } = await journal.list();
        if (entries.length > ids.length) {
          ids.push(entries.at(-1)!.id);
          history.push(after);
        }
      }
      if (ids.length === 0) continue;
      const to = rand(ids.length);
      const final = snapshot(root);
      await journal.undo(ids[to]!);
      expect(snapshot(root)).toEqual(history[to]);
      await journal.redo();
      expect(snapshot(root)).toEqual(final);
    }
  });

  it("refuses, changing nothing, when a file changed outside the journal, naming it", async () => {
    const root = temp();
    const journal = new Journal(root, temp());
    writeFileSync(path.join(root, "a.txt"), "1\n");
    await journal.around("exec", async () => sh(root, "echo 2 > a.txt && echo b > b.txt"));
    const [entry] = (await journal.list()).entries;
    writeFileSync(path.join(root, "a.txt"), "edited by hand\n");
    await expect(journal.undo(entry!.id)).rejects.toThrow(/^a\.txt changed outside the journal/);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("edited by hand\n");
    expect(readFileSync(path.join(root, "b.txt"), "utf8")).toBe("b\n");
    const dry = await journal.undo(entry!.id, { dryRun: true }).catch((e: Error) => e.message);
    expect(dry).toMatch(/a\.txt changed outside the journal/);
  });

  it("drops the oldest entries past its size bound and says how many", async () => {
    const root = temp();
    const journal = new Journal(root, temp(), { maxBytes: 3000 });
    for (let k = 0; k < 5; k++)
      await journal.around("exec", async () =>
        writeFileSync(path.join(root, `f${k}.txt`), "x".repeat(1000 + k)),
      );
    const { entries, dropped } = await journal.list();
    expect(dropped).toBeGreaterThan(0);
    expect(entries.length + dropped).toBe(5);
    expect(entries.at(-1)!.files[0]!.path).toBe("f4.txt");
  });

  it("a symlink is journalled as a link, never followed", async () => {
    const root = temp();
    const outside = temp();
    writeFileSync(path.join(outside, "secret"), "s");
    const journal = new Journal(root, temp());
    await journal.around("exec", async () => symlinkSync(path.join(outside, "secret"), path.join(root, "l")));
    const [entry] = (await journal.list()).entries;
    expect(entry!.files).toEqual([
      { path: "l", before: null, after: { type: "symlink", target: path.join(outside, "secret") } },
    ]);
    await journal.undo(entry!.id);
    expect(() => lstatSync(path.join(root, "l"))).toThrow();
    expect(readFileSync(path.join(outside, "secret"), "utf8")).toBe("s");
  });
});
