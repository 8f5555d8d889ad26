import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireFileLock, withFileLock } from "./file-lock.js";

const temp = () => mkdtempSync(path.join(tmpdir(), "clawtools-file-lock-"));

describe("acquireFileLock", () => {
  it("holds <file>.lock with this process's pid and host, and removes it on release", async () => {
    const file = path.join(temp(), "jobs.json");
    const release = await acquireFileLock(file);
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(`${process.pid}\n${hostname()}\n`);
    release();
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
    (await acquireFileLock(file, { timeoutMs: 5_000 }))();
    // a live holder (this process) whose lock is old: broken by age
    writeFileSync(`${file}.lock`, `${process.pid}\n${hostname()}\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    (await acquireFileLock(file, { timeoutMs: 5_000, staleMs: 30_000 }))();
  });

  it("times out on a live holder, naming the file and the holder's pid", async () => {
    const file = path.join(temp(), "jobs.json");
    const release = await acquireFileLock(file);
    await expect(acquireFileLock(file, { timeoutMs: 50 })).rejects.toThrow(
      `waiting for the lock on ${file} (held by pid ${process.pid})`,
    );
    release();
  });
});
