import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resetTempSweeps, TEMP_FILE_PATTERN } from "../safety/temp-files.js";
import { replaceInDir, writeFileAtomically } from "./atomic-write.js";

const temp = () => mkdtempSync(path.join(tmpdir(), "clawtools-atomic-write-"));

describe("writeFileAtomically", () => {
  it("creates the directory, writes the bytes private to the user, and leaves no temp file", async () => {
    const dir = path.join(temp(), "logs", "deep");
    const file = path.join(dir, "run.jsonl");
    await writeFileAtomically(file, "one\n");
    await writeFileAtomically(file, new Uint8Array(Buffer.from("two\n")), { durable: true });
    expect(readFileSync(file, "utf8")).toBe("two\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["run.jsonl"]);
  });

  it("sweeps a stale temp file a killed writer left, and keeps a fresh one", async () => {
    resetTempSweeps();
    const dir = temp();
    const stale = path.join(dir, ".jobs.json.0123456789ab.clawtools-tmp");
    const fresh = path.join(dir, ".jobs.json.ba9876543210.clawtools-tmp");
    writeFileSync(stale, "half");
    writeFileSync(fresh, "half");
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(stale, old, old);
    await writeFileAtomically(path.join(dir, "jobs.json"), "{}");
    expect(readdirSync(dir).sort()).toEqual([path.basename(fresh), "jobs.json"].sort());
  });
});

describe("replaceInDir", () => {
  it("sets an exact mode past the umask when asked (a file restored as it was)", async () => {
    const dir = temp();
    await replaceInDir({ real: dir, via: dir }, "script.sh", "#!/bin/sh\n", { mode: 0o775, exactMode: true });
    expect(statSync(path.join(dir, "script.sh")).mode & 0o7777).toBe(0o775);
  });

  it("a failing check before the rename leaves the old file and no temp file", async () => {
    const dir = temp();
    writeFileSync(path.join(dir, "a.txt"), "old");
    const moved = new Error("the directory moved");
    await expect(
      replaceInDir({ real: dir, via: dir }, "a.txt", "new", {
        beforeRename: async () => {
          throw moved;
        },
      }),
    ).rejects.toBe(moved);
    expect(readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("old");
    expect(readdirSync(dir).filter((n) => TEMP_FILE_PATTERN.test(n))).toEqual([]);
  });
});
