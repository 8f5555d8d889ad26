import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetTempSweeps } from "./temp-files.js";
import {
  listDirInWorkspace,
  mkdirInWorkspace,
  removeInWorkspace,
  renameInWorkspace,
} from "./workspace-entries.js";
import { openInWorkspace, resolveInWorkspace, statInWorkspace, writeFileAtomic } from "./workspace-fs.js";
import { useProcFd } from "./workspace-walk.js";

const dirs: string[] = [];
afterEach(() => {
  useProcFd(true);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-safety-")));
  dirs.push(dir);
  return dir;
}
const read = async (root: string, p: string) => {
  const h = await openInWorkspace(root, p);
  try {
    return (await h.handle.readFile()).toString("utf8");
  } finally {
    await h.close();
  }
};

for (const strategy of ["/proc/self/fd", "identity checks"] as const) {
  describe(`workspace containment (${strategy})`, () => {
    const setup = () => {
      useProcFd(strategy === "/proc/self/fd");
      const root = tempDir();
      const outside = tempDir();
      mkdirSync(path.join(root, "a", "b"), { recursive: true });
      writeFileSync(path.join(root, "a", "b", "f.txt"), "hello");
      writeFileSync(path.join(outside, "secret.txt"), "secret");
      symlinkSync("a/b", path.join(root, "alias"));
      symlinkSync(outside, path.join(root, "out"));
      symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret-link"));
      return { root, outside };
    };

    it("opens through in-root symlinks and reports the real path", async () => {
      const { root } = setup();
      expect(await read(root, "alias/f.txt")).toBe("hello");
      expect(await read(root, path.join(root, "alias", "f.txt"))).toBe("hello");
      const st = await statInWorkspace(root, "alias/f.txt");
      expect(st?.realPath).toBe(path.join(root, "a", "b", "f.txt"));
      expect(await resolveInWorkspace(root, "alias/new/x.txt")).toBe(
        path.join(root, "a", "b", "new", "x.txt"),
      );
    });

    it("refuses .., absolute and symlink escapes with the existing messages", async () => {
      const { root, outside } = setup();
      await expect(read(root, "../x")).rejects.toThrow(`Path escapes sandbox root (${root}): ../x`);
      await expect(read(root, "/etc/passwd")).rejects.toThrow(
        `Path escapes sandbox root (${root}): /etc/passwd`,
      );
      await expect(read(root, "out/secret.txt")).rejects.toThrow(
        `Symlink escapes sandbox root (${root}): out/secret.txt -> ${outside}`,
      );
      await expect(read(root, "secret-link")).rejects.toThrow(
        `Symlink escapes sandbox root (${root}): secret-link -> ${path.join(outside, "secret.txt")}`,
      );
      await expect(writeFileAtomic(root, "out/deep/evil.txt", "x")).rejects.toThrow(/Symlink escapes/);
      await expect(writeFileAtomic(root, "secret-link", "x")).rejects.toThrow(/Symlink escapes/);
      await expect(listDirInWorkspace(root, "out")).rejects.toThrow(/Symlink escapes/);
      await expect(mkdirInWorkspace(root, "out/sub")).rejects.toThrow(/Symlink escapes/);
      expect(readdirSync(outside)).toEqual(["secret.txt"]);
      expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret");
    });

    it("deep paths: a link anywhere on the way is walked hop by hop, never taken as found", async () => {
      const { root, outside } = setup();
      mkdirSync(path.join(outside, "deep"));
      writeFileSync(path.join(outside, "deep", "f.txt"), "outside deep");
      symlinkSync("a", path.join(root, "l")); // l/b/f.txt is a/b/f.txt
      expect(await read(root, "l/b/f.txt")).toBe("hello");
      expect((await statInWorkspace(root, "l/b/f.txt"))!.realPath).toBe(path.join(root, "a", "b", "f.txt"));
      await expect(read(root, "out/deep/f.txt")).rejects.toThrow(
        `Symlink escapes sandbox root (${root}): out/deep/f.txt -> ${outside}`,
      );
      await expect(writeFileAtomic(root, "out/deep/new.txt", "x")).rejects.toThrow(/Symlink escapes/);
      await expect(listDirInWorkspace(root, "out/deep/")).rejects.toThrow(/Symlink escapes/);
      expect(readdirSync(path.join(outside, "deep"))).toEqual(["f.txt"]);
    });

    it("quotes at most a short prefix of a huge path", async () => {
      const { root } = setup();
      const huge = `../${"x".repeat(100_000)}`;
      const error = await read(root, huge).catch((e: Error) => e);
      expect((error as Error).message).toBe(
        `Path escapes sandbox root (${root}): ${huge.slice(0, 200)}… (100003 characters)`,
      );
    });

    it("refuses paths longer than the system's limits before creating anything", async () => {
      const { root } = setup();
      const deep = "d/".repeat(3000) + "f.txt";
      await expect(writeFileAtomic(root, deep, "x")).rejects.toThrow(
        `Path too long (${Buffer.byteLength(root) + 6006} bytes resolved; at most 4096): ${deep.slice(0, 200)}… (6005 characters)`,
      );
      await expect(writeFileAtomic(root, `${"n".repeat(256)}.txt`, "x")).rejects.toThrow(
        "File name too long (260 bytes; at most 255)",
      );
      expect(readdirSync(root).sort()).toEqual(["a", "alias", "out", "secret-link"]);
    });

    it("refuses hardlinks for reading and writing, saying so", async () => {
      const { root, outside } = setup();
      linkSync(path.join(outside, "secret.txt"), path.join(root, "hard.txt"));
      await expect(read(root, "hard.txt")).rejects.toThrow(
        `Refusing to read through a hardlink (2 links) inside ${root}: hard.txt`,
      );
      await expect(writeFileAtomic(root, "hard.txt", "pwned")).rejects.toThrow(
        `Refusing to write through a hardlink (2 links) inside ${root}: hard.txt`,
      );
      await expect(openInWorkspace(root, "hard.txt", { mode: "write" })).rejects.toThrow(
        /write through a hardlink/,
      );
      expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret");
      const allowed = await openInWorkspace(root, "hard.txt", { allowHardlinks: true });
      await allowed.close();
    });

    it("writes atomically through in-root aliases, creating parents, keeping the mode", async () => {
      const { root } = setup();
      await writeFileAtomic(root, "alias/new/deep.txt", "n");
      expect(readFileSync(path.join(root, "a", "b", "new", "deep.txt"), "utf8")).toBe("n");
      execFileSync("chmod", ["640", path.join(root, "a", "b", "f.txt")]);
      await writeFileAtomic(root, "alias/f.txt", "changed");
      expect(readFileSync(path.join(root, "a", "b", "f.txt"), "utf8")).toBe("changed");
      expect((await statInWorkspace(root, "a/b/f.txt"))!.stat.mode & 0o777).toBe(0o640);
      expect(readdirSync(path.join(root, "a", "b")).sort()).toEqual(["f.txt", "new"]);
      await expect(writeFileAtomic(root, "a", "x")).rejects.toThrow(/EISDIR/);
      await expect(writeFileAtomic(root, "missing/x.txt", "x", { createParents: false })).rejects.toThrow(
        /ENOENT/,
      );
    });

    it("removes a symlink itself, never its target, and renames inside", async () => {
      const { root, outside } = setup();
      await removeInWorkspace(root, "out");
      await removeInWorkspace(root, "secret-link");
      expect(readdirSync(outside)).toEqual(["secret.txt"]);
      await renameInWorkspace(root, "alias/f.txt", "a/moved.txt");
      expect(readFileSync(path.join(root, "a", "moved.txt"), "utf8")).toBe("hello");
      await expect(removeInWorkspace(root, "a")).rejects.toThrow(/EISDIR/);
      await expect(removeInWorkspace(root, "nope")).rejects.toThrow(/ENOENT/);
    });

    it("lists a directory from its descriptor; stat of a missing path is null", async () => {
      const { root, outside } = setup();
      expect(await listDirInWorkspace(root, "alias")).toEqual([{ name: "f.txt", type: "file" }]);
      symlinkSync("nowhere.txt", path.join(root, "a", "dangling"));
      const sorted = (await listDirInWorkspace(root, ".")).sort((x, y) => x.name.localeCompare(y.name));
      // links are listed with their target text, never followed
      expect(sorted).toEqual([
        { name: "a", type: "directory" },
        { name: "alias", type: "symlink", target: "a/b" },
        { name: "out", type: "symlink", target: outside },
        { name: "secret-link", type: "symlink", target: path.join(outside, "secret.txt") },
      ]);
      expect(await listDirInWorkspace(root, "a")).toContainEqual({
        name: "dangling",
        type: "symlink",
        target: "nowhere.txt",
      });
      expect(await statInWorkspace(root, "nope/deeper")).toBeNull();
      expect(await statInWorkspace(root, "a/b/f.txt/under")).toBeNull();
      expect((await statInWorkspace(root, "out", { final: "nofollow" }))!.stat.isSymbolicLink()).toBe(true);
    });

    it("refuses a FIFO without blocking and reports a symlink loop", async () => {
      const { root } = setup();
      execFileSync("mkfifo", [path.join(root, "pipe")]);
      await expect(read(root, "pipe")).rejects.toThrow("Not a regular file (a device, socket or pipe): pipe");
      symlinkSync("loop2", path.join(root, "loop1"));
      symlinkSync("loop1", path.join(root, "loop2"));
      await expect(read(root, "loop1")).rejects.toThrow("Too many symlinks resolving loop1");
    });
  });
}

describe("reading through a link that leaves the workspace", () => {
  it("never opens what the link points at: a writer blocked on a FIFO outside stays blocked", async () => {
    const root = tempDir();
    const outside = tempDir();
    execFileSync("mkfifo", [path.join(outside, "pipe")]);
    symlinkSync(outside, path.join(root, "out"));
    const marker = path.join(outside, "opened");
    // the writer's open returns only once something opens the FIFO for reading
    const { spawn } = await import("node:child_process");
    const writer = spawn("sh", ["-c", `exec 3>"${path.join(outside, "pipe")}"; echo yes > "${marker}"`]);
    try {
      await expect(read(root, "out/pipe")).rejects.toThrow(/escapes sandbox root|Symlink/);
      await expect(read(root, path.join(root, "out", "pipe"))).rejects.toThrow();
      // had the read opened the FIFO, the writer would have written its marker by now
      for (let i = 0; i < 20 && !existsSync(marker); i++) await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 200));
      expect(existsSync(marker)).toBe(false);
    } finally {
      writer.kill("SIGKILL");
    }
  });
});

describe("a workspace given through a symlink (macOS /tmp)", () => {
  for (const strategy of ["/proc/self/fd", "identity checks"] as const) {
    it(`accepts both spellings and still refuses escapes (${strategy})`, async () => {
      useProcFd(strategy === "/proc/self/fd");
      const parent = tempDir();
      const outside = tempDir();
      const real = path.join(parent, "real");
      const link = path.join(parent, "link");
      mkdirSync(path.join(real, "src"), { recursive: true });
      symlinkSync(real, link);
      writeFileSync(path.join(real, "src", "a.txt"), "inside");
      writeFileSync(path.join(outside, "secret.txt"), "secret");
      symlinkSync(outside, path.join(real, "out"));
      // an in-root link spelled through the workspace's own link is inside too
      symlinkSync(path.join(link, "src", "a.txt"), path.join(real, "via-link"));
      expect(await read(link, path.join(real, "src", "a.txt"))).toBe("inside");
      expect(await read(link, path.join(link, "src", "a.txt"))).toBe("inside");
      expect(await read(link, "src/a.txt")).toBe("inside");
      expect(await read(link, "via-link")).toBe("inside");
      await writeFileAtomic(link, path.join(real, "src", "deep", "b.txt"), "written");
      expect(readFileSync(path.join(real, "src", "deep", "b.txt"), "utf8")).toBe("written");
      await expect(read(link, path.join(real, "..", "x"))).rejects.toThrow(
        `Path escapes sandbox root (${link}): ${path.join(parent, "x")}`,
      );
      await expect(read(link, path.join(real, "out", "secret.txt"))).rejects.toThrow(
        `Symlink escapes sandbox root (${link}): ${path.join(real, "out", "secret.txt")} -> ${outside}`,
      );
      await expect(writeFileAtomic(link, path.join(real, "out", "evil.txt"), "x")).rejects.toThrow(
        /Symlink escapes/,
      );
      expect(readdirSync(outside)).toEqual(["secret.txt"]);
    });
  }
});

describe("a workspace root replaced by a symlink after first use", () => {
  it("fails closed instead of following it", async () => {
    const parent = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "f.txt"), "outside");
    const root = path.join(parent, "ws");
    mkdirSync(root);
    writeFileSync(path.join(root, "f.txt"), "inside");
    expect(await read(root, "f.txt")).toBe("inside");
    execFileSync("mv", [root, path.join(parent, "ws-moved")]);
    symlinkSync(outside, root);
    await expect(read(root, "f.txt")).rejects.toThrow(/ELOOP|ENOTDIR/);
    await expect(writeFileAtomic(root, "new.txt", "x")).rejects.toThrow(/ELOOP|ENOTDIR/);
    expect(readdirSync(outside)).toEqual(["f.txt"]);
  });
});

describe("stale temp files", () => {
  it("the next write into a directory removes this project's temp files older than 5 minutes", async () => {
    resetTempSweeps();
    const root = tempDir();
    const stale = path.join(root, ".f.txt.0123456789ab.clawtools-tmp");
    const fresh = path.join(root, ".g.txt.ba9876543210.clawtools-tmp");
    const foreign = path.join(root, ".f.txt.tmp");
    for (const f of [stale, fresh, foreign]) writeFileSync(f, "partial");
    const old = (Date.now() - 6 * 60_000) / 1000;
    utimesSync(stale, old, old);
    utimesSync(foreign, old, old);
    await writeFileAtomic(root, "f.txt", "done");
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(foreign)).toBe(true);
    expect(readFileSync(path.join(root, "f.txt"), "utf8")).toBe("done");
  });
});
