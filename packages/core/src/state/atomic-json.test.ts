import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TEMP_FILE_PATTERN } from "../safety/temp-files.js";
import { readJsonFile, writeJsonAtomic } from "./atomic-json.js";

// a test here starts Node under tsx: 10 s and more on a loaded CI machine
vi.setConfig({ testTimeout: 90_000 });

const here = path.dirname(fileURLToPath(import.meta.url));
const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "atomic-json-"));
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);
process.on("warning", onWarning);
afterEach(() => {
  warnings.length = 0;
});

describe("writeJsonAtomic", () => {
  it("writes pretty JSON with a private mode, making the directory, leaving no temp file", async () => {
    const dir = tempDir();
    const file = path.join(dir, "nested", "state.json");
    await writeJsonAtomic(file, { a: 1 });
    expect(readFileSync(file, "utf8")).toBe('{\n  "a": 1\n}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await writeJsonAtomic(file, [2], { durable: true, mode: 0o640 });
    expect(await readJsonFile(file)).toEqual([2]);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(path.dirname(file))).toEqual(["state.json"]);
  });

  it("refuses a value that is not JSON, naming the file", async () => {
    const file = path.join(tempDir(), "x.json");
    await expect(writeJsonAtomic(file, undefined)).rejects.toThrow(
      /x\.json\): the value is not JSON \(undefined\)/,
    );
    await expect(writeJsonAtomic(file, () => 1)).rejects.toThrow(/not JSON \(function\)/);
  });

  it("serialises concurrent writers of one file (also through an alias), last call wins", async () => {
    const dir = tempDir();
    symlinkSync(dir, path.join(dir, "..", `${path.basename(dir)}-alias`));
    const file = path.join(dir, "s.json");
    const alias = path.join(`${dir}-alias`, "s.json");
    const writes = Array.from({ length: 40 }, (_, i) => writeJsonAtomic(i % 2 ? alias : file, { i }));
    await Promise.all(writes);
    expect(await readJsonFile(file)).toEqual({ i: 39 });
    expect(readdirSync(dir).filter((n) => TEMP_FILE_PATTERN.test(n))).toEqual([]);
  });

  it("a writer killed mid-write never leaves a half-written file", async () => {
    const dir = tempDir();
    const file = path.join(dir, "big.json");
    const child = spawn(
      process.execPath,
      [
        "--conditions=@clawtools/source",
        "--import",
        "tsx",
        path.join(here, "fixtures", "write-forever.ts"),
        file,
      ],
      { cwd: path.resolve(here, "../.."), stdio: ["ignore", "pipe", "inherit"] },
    );
    // killed once it is past its first rename, while it writes the next files
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const value = (await readJsonFile(file)) as { round: number; items: number[] };
    expect(value.items).toHaveLength(20_000);
    expect(value.items.every((n) => n === value.round)).toBe(true);
    // whatever temp file it left is the only other entry, named for the sweep
    for (const name of readdirSync(dir)) if (name !== "big.json") expect(name).toMatch(TEMP_FILE_PATTERN);
  });
});

describe("readJsonFile", () => {
  it("reads undefined for a missing file and throws other read errors", async () => {
    const dir = tempDir();
    expect(await readJsonFile(path.join(dir, "none.json"))).toBeUndefined();
    await expect(readJsonFile(dir)).rejects.toThrow(/EISDIR/);
  });

  it("fails closed on a corrupt file by default, naming it", async () => {
    const file = path.join(tempDir(), "torn.json");
    writeFileSync(file, '{"a": ');
    await expect(readJsonFile(file)).rejects.toThrow(/torn\.json is not a valid state file/);
    expect(await readJsonFile(file, { onCorrupt: "ignore" })).toBeUndefined();
    expect(readFileSync(file, "utf8")).toBe('{"a": ');
    expect(await readJsonFile(file, { onCorrupt: (e) => ({ fallback: e.message.length > 0 }) })).toEqual({
      fallback: true,
    });
  });

  it("quarantines a corrupt file aside with a warning", async () => {
    const dir = tempDir();
    const file = path.join(dir, "torn.json");
    writeFileSync(file, "not json");
    expect(await readJsonFile(file, { onCorrupt: "quarantine" })).toBeUndefined();
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^torn\.json\.corrupt-\d+$/);
    expect(readFileSync(path.join(dir, names[0]!), "utf8")).toBe("not json");
    await expect.poll(() => warnings.join("\n")).toMatch(/torn\.json is not a valid state file.*moved aside/);
  });

  it("counts a shape the parser refuses as corrupt", async () => {
    const file = path.join(tempDir(), "s.json");
    await writeJsonAtomic(file, { version: 2 });
    const parse = (v: unknown) => {
      if ((v as { version?: number }).version !== 1) throw new Error("unknown version");
      return v as { version: 1 };
    };
    await expect(readJsonFile(file, { parse })).rejects.toThrow(
      /s\.json is not a valid state file: unknown version/,
    );
    await writeJsonAtomic(file, { version: 1 });
    expect(await readJsonFile(file, { parse })).toEqual({ version: 1 });
  });
});
