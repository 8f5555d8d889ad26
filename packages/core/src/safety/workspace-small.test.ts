import { execFileSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listDirInWorkspace } from "./workspace-entries.js";
import { DIRECT_READ_MAX, listSmallDirInWorkspace, readSmallInWorkspace } from "./workspace-small.js";
import { useProcFd } from "./workspace-walk.js";

const dirs: string[] = [];
afterEach(() => {
  useProcFd(true);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "clawtools-small-")));
  dirs.push(dir);
  return dir;
}

describe.runIf(process.platform === "linux")("small entries read in place", () => {
  it("reads a small regular file whole, with its stat and real path", async () => {
    const root = tempDir();
    mkdirSync(path.join(root, "deep", "er"), { recursive: true });
    const text = "héllo\nwörld\n".repeat(100);
    writeFileSync(path.join(root, "deep", "er", "notes.txt"), text);
    const got = await readSmallInWorkspace(root, "deep/er/notes.txt");
    expect(got?.data.toString("utf8")).toBe(text);
    expect(got?.realPath).toBe(path.join(root, "deep", "er", "notes.txt"));
    expect(got?.stat.size).toBe(Buffer.byteLength(text));
  });

  it("leaves everything else to the verified walk: null, nothing opened that could block", async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(path.join(outside, "secret"), "outside");
    writeFileSync(path.join(root, "empty"), "");
    writeFileSync(path.join(root, "big"), "x".repeat(DIRECT_READ_MAX + 1));
    writeFileSync(path.join(root, "capped"), "x".repeat(100));
    writeFileSync(path.join(root, "linked"), "two names");
    linkSync(path.join(root, "linked"), path.join(root, "other-name"));
    writeFileSync(path.join(root, "target"), "in root");
    symlinkSync("target", path.join(root, "in-root-link"));
    symlinkSync(outside, path.join(root, "out"));
    mkdirSync(path.join(root, "dir"));
    symlinkSync("dir", path.join(root, "dir-link"));
    writeFileSync(path.join(root, "dir", "f"), "f");
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    for (const target of [
      "empty",
      "big",
      "linked",
      "in-root-link",
      "out/secret",
      "dir-link/f",
      "dir",
      "pipe",
      "missing",
      "../secret",
      path.join(outside, "secret"),
    ])
      expect(await readSmallInWorkspace(root, target), target).toBeNull();
    expect(await readSmallInWorkspace(root, "capped", { maxBytes: 99 })).toBeNull();
    expect((await readSmallInWorkspace(root, "linked", { allowHardlinks: true }))?.data.toString()).toBe(
      "two names",
    );
    expect((await readSmallInWorkspace(root, "dir/f"))?.data.toString()).toBe("f");
  });

  it.runIf(existsSync("/sys/kernel/cpu_byteorder"))(
    "keeps a filesystem that is not local storage (sysfs here) on the asynchronous path",
    async () => {
      expect(readFileSync("/sys/kernel/cpu_byteorder", "utf8")).not.toBe("");
      expect(await readSmallInWorkspace("/sys/kernel", "cpu_byteorder")).toBeNull();
      expect(await listSmallDirInWorkspace("/sys", "kernel")).toBeNull();
    },
  );

  it("lists a small directory in place exactly as the walk lists it", async () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(root, "src", "sub"), { recursive: true });
    for (let i = 0; i < 30; i++) writeFileSync(path.join(root, "src", `m-${i}.ts`), `${i}`);
    symlinkSync("m-1.ts", path.join(root, "src", "near"));
    symlinkSync(outside, path.join(root, "src", "far"));
    symlinkSync("nowhere", path.join(root, "src", "dangling"));
    execFileSync("mkfifo", [path.join(root, "src", "pipe")]);
    symlinkSync("src", path.join(root, "src-link"));
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    const inPlace = await listSmallDirInWorkspace(root, "src");
    expect(inPlace).not.toBeNull();
    useProcFd(false);
    const walked = await listDirInWorkspace(root, "src");
    expect([...inPlace!].sort(byName)).toEqual([...walked].sort(byName));
    expect(inPlace!.find((e) => e.name === "far")).toEqual({ name: "far", type: "symlink", target: outside });
    expect(inPlace!.find((e) => e.name === "pipe")?.type).toBe("other");
    useProcFd(true);
    // a directory reached through a link, or a file, is the walk's to judge
    expect(await listSmallDirInWorkspace(root, "src-link")).toBeNull();
    expect(await listSmallDirInWorkspace(root, "src/m-1.ts")).toBeNull();
    expect(await listSmallDirInWorkspace(root, "..")).toBeNull();
  });
});
