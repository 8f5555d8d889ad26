import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { JsonFile } from "../src/store/json-file.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
const TSX = path.join(import.meta.dirname, "..", "node_modules", ".bin", "tsx");
const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);
const dir = () => mkdtempSync(path.join(tmpdir(), "sessions-json-cache-"));
const onDisk = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** Another process setting one key through its own JsonFile; how often it parsed inside the lock. */
async function setElsewhere(file: string, key: string, value: string): Promise<number> {
  const { stdout } = await run(
    TSX,
    ["--conditions=@clawtools/source", fixture("json-set-worker.ts"), file, key, value],
    { cwd: ROOT },
  );
  const [status, parses] = stdout.trim().split(" ");
  expect(status).toBe("ok");
  return Number(parses);
}

describe("JsonFile: what this process already holds is not parsed again, what others wrote is", () => {
  it("another process's rewrite of the very bytes last seen is read without a parse", async () => {
    const file = path.join(dir(), "x.json");
    const json = new JsonFile<Record<string, string>>(file, () => ({}));
    await json.mutate((v) => {
      v.a = "mine";
    });
    const before = statSync(file, { bigint: true });
    // the same text, written to a new file and renamed over (a new inode, new times)
    execFileSync(process.execPath, [
      "-e",
      `const fs = require("node:fs");
       const f = process.argv[1];
       fs.writeFileSync(f + ".other.tmp", fs.readFileSync(f));
       fs.renameSync(f + ".other.tmp", f);`,
      file,
    ]);
    expect(statSync(file, { bigint: true }).ino).not.toBe(before.ino);
    expect(await json.read()).toEqual({ a: "mine" });
    expect(json.stats).toMatchObject({ writes: 1, parses: 0, readParses: 0 });
    await json.mutate((v) => {
      v.b = "more";
    });
    expect(onDisk(file)).toEqual({ a: "mine", b: "more" });
    expect(json.stats).toMatchObject({ writes: 2, parses: 0, readParses: 0 });
  });

  it("another process's write between two of ours is seen by the read and kept by the next write", async () => {
    const file = path.join(dir(), "x.json");
    const json = new JsonFile<Record<string, string>>(file, () => ({}));
    await json.mutate((v) => {
      v.a = "1111";
    });
    expect(await setElsewhere(file, "a", "2222")).toBe(1);
    expect(await json.read()).toEqual({ a: "2222" });
    expect(json.stats.readParses).toBe(1);
    await setElsewhere(file, "z", "them");
    await json.mutate((v) => {
      v.b = "mine";
    });
    // the second foreign write was not read before our write: it was found inside the lock
    expect(json.stats.parses).toBe(1);
    expect(onDisk(file)).toEqual({ a: "2222", z: "them", b: "mine" });
    expect(await json.read()).toEqual({ a: "2222", z: "them", b: "mine" });
  }, 60_000);

  it("a file another process is still writing (its lock file, half written) is never read", async () => {
    const file = path.join(dir(), "x.json");
    const json = new JsonFile<Record<string, string>>(file, () => ({}));
    await json.mutate((v) => {
      v.a = "mine";
    });
    const text = JSON.stringify({ a: "mine", them: "x".repeat(5_000) }, null, 2);
    const writer = spawn(
      TSX,
      ["--conditions=@clawtools/source", fixture("json-torn-writer.ts"), file, text],
      {
        cwd: ROOT,
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    const lines = createInterface({ input: writer.stdout! })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe("half");
    // half of the new text is on disk, in the lock file: reads give the last whole file
    expect(readFileSync(`${file}.lock`, "utf8").length).toBeLessThan(text.length);
    expect(await json.read()).toEqual({ a: "mine" });
    // a write waits for the lock, then builds on the other process's whole file
    const mine = json.mutate((v) => {
      v.b = "after";
    });
    writer.stdin!.write("go\n");
    expect((await lines.next()).value).toBe("done");
    await mine;
    expect(onDisk(file)).toEqual({ a: "mine", them: "x".repeat(5_000), b: "after" });
    expect(await json.read()).toEqual({ a: "mine", them: "x".repeat(5_000), b: "after" });
    expect(json.stats.parses).toBe(1);
  }, 60_000);
});
