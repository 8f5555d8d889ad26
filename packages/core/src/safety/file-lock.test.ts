import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireFileLock, withFileLock } from "./file-lock.js";

const temp = () => mkdtempSync(path.join(tmpdir(), "clawtools-file-lock-"));

describe("acquireFileLock", () => {
  it("holds <file>.lock with this process's pid and host, and removes it on release", async () => {
    const file = path.join(temp(), "jobs.json");
    const lock = await acquireFileLock(file);
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(`${process.pid}\n${hostname()}\n`);
    lock.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("serialises holders: read-modify-writes from many callers lose no increment", async () => {
    const file = path.join(temp(), "counter");
    writeFileSync(file, "0");
    await Promise.all(
      Array.from({ length: 30 }, () =>
        withFileLock(file, async () => {
          const n = Number(readFileSync(file, "utf8"));
          await new Promise((resolve) => setImmediate(resolve));
          writeFileSync(file, String(n + 1));
        }),
      ),
    );
    expect(readFileSync(file, "utf8")).toBe("30");
  });

  it("breaks a lock whose holder died (kill -9), and one older than staleMs", async () => {
    const file = path.join(temp(), "jobs.json");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid as number;
    writeFileSync(`${file}.lock`, `${dead}\n${hostname()}\n`);
    (await acquireFileLock(file, { timeoutMs: 5_000 })).release();
    // a live holder (this process) whose lock is old: broken by age
    writeFileSync(`${file}.lock`, `${process.pid}\n${hostname()}\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    (await acquireFileLock(file, { timeoutMs: 5_000, staleMs: 30_000 })).release();
  });

  it("times out on a live holder, naming the file and the holder's pid", async () => {
    const file = path.join(temp(), "jobs.json");
    const lock = await acquireFileLock(file);
    await expect(acquireFileLock(file, { timeoutMs: 50 })).rejects.toThrow(
      `Timed out after 50 ms waiting for the lock on ${file} (held by pid ${process.pid})`,
    );
    lock.release();
  });
});

describe("the lock file is the new file", () => {
  const onDisk = (file: string) => JSON.parse(readFileSync(file, "utf8"));
  const leftovers = (d: string) => readdirSync(d).filter((f) => f.endsWith(".lock") || f.endsWith(".broken"));

  it("holds the owner's pid while held, becomes the file on replace, and is gone on release", async () => {
    const file = path.join(temp(), "x.json");
    writeFileSync(file, "{}");
    const lock = await acquireFileLock(file);
    expect(readFileSync(`${file}.lock`, "utf8").split("\n")[0]).toBe(String(process.pid));
    lock.replace('{\n  "a": 1\n}');
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(onDisk(file)).toEqual({ a: 1 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await acquireFileLock(file);
    again.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(onDisk(file)).toEqual({ a: 1 });
    expect(() => again.release()).toThrow(`The lock on ${file} was already released`);
  });

  it("replaces with bytes shorter than the owner line, leaving none of it behind", async () => {
    const file = path.join(temp(), "x.json");
    (await acquireFileLock(file)).replace(new Uint8Array(Buffer.from("{}")));
    expect(readFileSync(file, "utf8")).toBe("{}");
  });

  it("a lock caught while its owner writes the new text into it (no pid) is waited for, then broken once old", async () => {
    const d = temp();
    const file = path.join(d, "x.json");
    writeFileSync(`${file}.lock`, '{\n  "partial": ');
    await expect(acquireFileLock(file, { timeoutMs: 100 })).rejects.toThrow(
      `Timed out after 100 ms waiting for the lock on ${file} (held by pid ?)`,
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const lock = await acquireFileLock(file, { timeoutMs: 100 });
    lock.replace("{}");
    expect(onDisk(file)).toEqual({});
    expect(leftovers(d)).toEqual([]);
  });
});
